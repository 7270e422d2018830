import { sql, type Kysely, type Selectable } from "kysely";
import type { ApiKeysTable, BillingDatabase } from "../database.js";

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function makeKeysRepository(db: Kysely<BillingDatabase>) {
  return {
    async insert(key: Omit<ApiKeyRow, "created_at" | "revoked_at">): Promise<ApiKeyRow> {
      return db.insertInto("api_keys").values(key).returningAll().executeTakeFirstOrThrow();
    },
    /**
     * The key with this prefix, none (`null`), or `"unanswered"` when the database's answer is
     * not the one row this query always returns. The row comes from a one-row table joined
     * to the key, so "no such key" is a row the database wrote, never the mere absence of
     * rows: an answer lost or cut short on a dying connection cannot pass for an unknown key
     * (and a 401 for a good one).
     */
    async findByPrefix(prefix: string): Promise<ApiKeyRow | null | "unanswered"> {
      const { rows } = await sql<
        { answered: unknown } & { [K in keyof ApiKeyRow]: ApiKeyRow[K] | null }
      >`
        select true as answered, k.*
        from (values (1)) as one (x) left join api_keys k on k.prefix = ${prefix}`.execute(db);
      const [row, extra] = rows;
      if (!row || extra || row.answered !== true) return "unanswered";
      if (row.id === null) return null;
      const { answered: _answered, ...key } = row;
      return key as ApiKeyRow;
    },
    /** The account's keys, each with its latest call in the usage history (null if none). */
    async listByAccount(accountId: string): Promise<(ApiKeyRow & { last_used_at: Date | null })[]> {
      return db
        .selectFrom("api_keys")
        .selectAll("api_keys")
        .select((eb) =>
          eb
            .selectFrom("usage_records")
            .select((u) => u.fn.max("usage_records.at").as("at"))
            .whereRef("usage_records.key_id", "=", "api_keys.id")
            .as("last_used_at"),
        )
        .where("account_id", "=", accountId)
        .orderBy("created_at")
        .execute();
    },
    /** Sets revoked_at once; a second revocation keeps the first time. */
    async revoke(id: string): Promise<ApiKeyRow | undefined> {
      await db
        .updateTable("api_keys")
        .set({ revoked_at: new Date() })
        .where("id", "=", id)
        .where("revoked_at", "is", null)
        .execute();
      return db.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirst();
    },
  };
}

export type KeysRepository = ReturnType<typeof makeKeysRepository>;
