import type { Kysely } from "kysely";
import type { BillingDatabase } from "../database.js";

export function makePasswordResetsRepository(db: Kysely<BillingDatabase>) {
  return {
    async insert(tokenHash: Buffer, userId: string, now: Date, ttlMs: number): Promise<void> {
      await db
        .insertInto("password_resets")
        .values({
          token_hash: tokenHash,
          user_id: userId,
          created_at: now,
          expires_at: new Date(now.getTime() + ttlMs),
        })
        .execute();
    },
    /** Tokens requested for a user since `since` (a bound on reset e-mails). */
    async countSince(userId: string, since: Date): Promise<number> {
      const row = await db
        .selectFrom("password_resets")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("user_id", "=", userId)
        .where("created_at", ">", since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /**
     * Uses a token once: the user's id if it was unused and unexpired, and then every other
     * outstanding token of that user is spent too.
     */
    async consume(tokenHash: Buffer, now: Date): Promise<string | undefined> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable("password_resets")
          .set({ used_at: now })
          .where("token_hash", "=", tokenHash)
          .where("used_at", "is", null)
          .where("expires_at", ">", now)
          .returning("user_id")
          .executeTakeFirst();
        if (!row) return undefined;
        await trx
          .updateTable("password_resets")
          .set({ used_at: now })
          .where("user_id", "=", row.user_id)
          .where("used_at", "is", null)
          .execute();
        return row.user_id;
      });
    },
    async sweep(now: Date): Promise<number> {
      const result = await db
        .deleteFrom("password_resets")
        .where("expires_at", "<", new Date(now.getTime() - 24 * 3_600_000))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type PasswordResetsRepository = ReturnType<typeof makePasswordResetsRepository>;
