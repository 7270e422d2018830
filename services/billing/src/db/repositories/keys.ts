import type { Kysely, Selectable } from "kysely";
import type { ApiKeysTable, BillingDatabase } from "../database.js";

export type ApiKeyRow = Selectable<ApiKeysTable>;

export function makeKeysRepository(db: Kysely<BillingDatabase>) {
  return {
    async insert(key: Omit<ApiKeyRow, "created_at" | "revoked_at">): Promise<ApiKeyRow> {
      return db.insertInto("api_keys").values(key).returningAll().executeTakeFirstOrThrow();
    },
    async findByPrefix(prefix: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom("api_keys").selectAll().where("prefix", "=", prefix).executeTakeFirst();
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
