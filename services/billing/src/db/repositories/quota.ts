import { advisoryXactLock } from "@pasarela/db";
import type { Kysely } from "kysely";
import type { BillingDatabase, QuotaResource } from "../database.js";

/**
 * Quota holds: a `reserved` row per metered call in progress (bounded by `expires_at`), a
 * `committed` row per call that counts, a `voided` one per unit given back. Used = committed +
 * live reservations of the period.
 */
export function makeQuotaRepository(db: Kysely<BillingDatabase>) {
  return {
    /**
     * Serialises reservations of one account and resource until the transaction ends, so
     * concurrent calls never both take the last unit.
     */
    async lock(accountId: string, resource: QuotaResource): Promise<void> {
      await advisoryXactLock(`quota:${accountId}:${resource}`).execute(db);
    },
    async used(
      accountId: string,
      resource: QuotaResource,
      period: { start: Date; end: Date },
      now: Date,
    ): Promise<number> {
      const row = await db
        .selectFrom("quota_holds")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("account_id", "=", accountId)
        .where("resource", "=", resource)
        .where("created_at", ">=", period.start)
        .where("created_at", "<", period.end)
        .where((eb) => eb.or([eb("state", "=", "committed"), eb("expires_at", ">", now)]))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** whether `ref` holds a unit that counts (reserved and live, or committed) */
    async holds(ref: string, now: Date): Promise<boolean> {
      const row = await db
        .selectFrom("quota_holds")
        .select("ref")
        .where("ref", "=", ref)
        .where((eb) => eb.or([eb("state", "=", "committed"), eb("expires_at", ">", now)]))
        .executeTakeFirst();
      return row !== undefined;
    },
    async reserve(hold: {
      ref: string;
      accountId: string;
      resource: QuotaResource;
      at: Date;
      expiresAt: Date;
    }): Promise<boolean> {
      const inserted = await db
        .insertInto("quota_holds")
        .values({
          ref: hold.ref,
          account_id: hold.accountId,
          resource: hold.resource,
          state: "reserved",
          created_at: hold.at,
          expires_at: hold.expiresAt,
        })
        .onConflict((oc) => oc.column("ref").doNothing())
        .returning("ref")
        .executeTakeFirst();
      // false: a reservation under this ref was already there (and counted)
      return inserted !== undefined;
    },
    /**
     * The call counts: its reservation becomes committed, or (when it expired and was swept
     * before the outcome arrived) a committed row is written, so it is counted exactly once.
     */
    async commit(
      ref: string,
      fallback?: { accountId: string; resource: QuotaResource; at: Date },
    ): Promise<boolean> {
      const updated = await db
        .updateTable("quota_holds")
        .set({ state: "committed", expires_at: null })
        .where("ref", "=", ref)
        // a unit given back stays given back, whatever is delivered after
        .where("state", "!=", "voided")
        .executeTakeFirst();
      if (updated.numUpdatedRows > 0n || !fallback) return updated.numUpdatedRows > 0n;
      const inserted = await db
        .insertInto("quota_holds")
        .values({
          ref,
          account_id: fallback.accountId,
          resource: fallback.resource,
          state: "committed",
          created_at: fallback.at,
          expires_at: null,
        })
        .onConflict((oc) => oc.column("ref").doNothing())
        .returning("ref")
        .executeTakeFirst();
      return inserted !== undefined;
    },
    /**
     * The unit counts toward nothing after all: its hold becomes `voided` (written when its
     * commit has not arrived yet, so that commit finds it given back).
     */
    async giveBack(
      ref: string,
      hold: { accountId: string; resource: QuotaResource; at: Date },
    ): Promise<void> {
      await db
        .insertInto("quota_holds")
        .values({
          ref,
          account_id: hold.accountId,
          resource: hold.resource,
          state: "voided",
          created_at: hold.at,
          expires_at: null,
        })
        .onConflict((oc) => oc.column("ref").doUpdateSet({ state: "voided", expires_at: null }))
        .execute();
    },
    async release(ref: string): Promise<boolean> {
      const deleted = await db
        .deleteFrom("quota_holds")
        .where("ref", "=", ref)
        .where("state", "=", "reserved")
        .executeTakeFirst();
      return deleted.numDeletedRows > 0n;
    },
    /** Reservations whose call never reported back (a crash): they stop holding quota. */
    async sweepExpired(now: Date): Promise<number> {
      const deleted = await db
        .deleteFrom("quota_holds")
        .where("state", "=", "reserved")
        .where("expires_at", "<=", now)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    },
  };
}

export type QuotaRepository = ReturnType<typeof makeQuotaRepository>;
