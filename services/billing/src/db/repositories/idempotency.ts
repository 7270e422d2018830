import type { billing } from "@pasarela/contracts";
import type { Kysely, Selectable } from "kysely";
import type { BillingDatabase, IdempotencyRecordsTable } from "../database.js";

export type IdempotencyRecord = Selectable<IdempotencyRecordsTable>;

/** Idempotency-Key records, scoped to the account. */
export function makeIdempotencyRepository(db: Kysely<BillingDatabase>) {
  return {
    /** The record, locked until the transaction ends. */
    async lockFor(accountId: string, key: string): Promise<IdempotencyRecord | undefined> {
      return db
        .selectFrom("idempotency_records")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("key", "=", key)
        .forUpdate()
        .executeTakeFirst();
    },
    /** false when another request bound the key meanwhile */
    async bind(r: {
      accountId: string;
      key: string;
      fingerprint: string;
      environment: string;
      requestId: string;
      at: Date;
      lockedUntil: Date;
      expiresAt: Date;
    }): Promise<boolean> {
      const inserted = await db
        .insertInto("idempotency_records")
        .values({
          account_id: r.accountId,
          key: r.key,
          fingerprint: r.fingerprint,
          environment: r.environment,
          state: "in_flight",
          request_id: r.requestId,
          locked_until: r.lockedUntil,
          created_at: r.at,
          expires_at: r.expiresAt,
        })
        .onConflict((oc) => oc.columns(["account_id", "key"]).doNothing())
        .returning("key")
        .executeTakeFirst();
      return inserted !== undefined;
    },
    async remove(accountId: string, key: string): Promise<void> {
      await db
        .deleteFrom("idempotency_records")
        .where("account_id", "=", accountId)
        .where("key", "=", key)
        .execute();
    },
    /** Stores the answer to replay (no HTTP status: the edge maps the answer); the first stays. */
    async complete(accountId: string, key: string, answer: billing.FacturaAnswer): Promise<void> {
      await db
        .updateTable("idempotency_records")
        .set({ state: "complete", status: null, body: JSON.stringify(answer), locked_until: null })
        .where("account_id", "=", accountId)
        .where("key", "=", key)
        .where("state", "!=", "complete")
        .execute();
    },
    /**
     * Extends the lease of the attempt `requestId` while it is still that attempt's and has not
     * lapsed; false otherwise (a lapsed lease may already be being looked up by a retry).
     */
    async hold(r: {
      accountId: string;
      key: string;
      requestId: string;
      now: Date;
      lockedUntil: Date;
    }): Promise<boolean> {
      const updated = await db
        .updateTable("idempotency_records")
        .set({ locked_until: r.lockedUntil })
        .where("account_id", "=", r.accountId)
        .where("key", "=", r.key)
        .where("request_id", "=", r.requestId)
        .where("state", "=", "in_flight")
        .where("locked_until", ">", r.now)
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n;
    },
    async markUnknown(accountId: string, key: string): Promise<void> {
      await db
        .updateTable("idempotency_records")
        .set({ state: "unknown", locked_until: null })
        .where("account_id", "=", accountId)
        .where("key", "=", key)
        .where("state", "=", "in_flight")
        .execute();
    },
    async sweepExpired(now: Date): Promise<number> {
      const deleted = await db
        .deleteFrom("idempotency_records")
        .where("expires_at", "<=", now)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof makeIdempotencyRepository>;
