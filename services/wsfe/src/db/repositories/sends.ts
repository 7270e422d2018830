import { sql, type Kysely } from "kysely";
import type { WsfeDatabase } from "../database.js";
import { UNRESOLVED } from "./comprobante-rows.js";
import { leaseHeld, msFromNow } from "./lease-fence.js";
import type { LeaseFence } from "./series.js";

/**
 * What the vouchers' sends leave behind: until when one may still reach the authority
 * (`in_flight_until`), how often reconciliation sent one again (`resends`), and which
 * Idempotency-Keys a live voucher holds. Part of the vouchers' repository.
 */
export function makeSendsRepository(db: Kysely<WsfeDatabase>) {
  return {
    /** The keys among `keys` of the account that a live voucher holds. */
    async liveKeys(accountId: string, keys: readonly string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await db
        .selectFrom("comprobantes")
        .select("idempotency_key")
        .where("account_id", "=", accountId)
        .where("idempotency_key", "in", keys)
        .where("state", "in", ["pending", "authorized", "unknown"])
        .execute();
      return new Set(rows.flatMap((r) => (r.idempotency_key === null ? [] : [r.idempotency_key])));
    },

    /**
     * About to send the voucher again (the same request, the same number): a send may reach
     * the authority until `inFlightMs` from now. Answers how long one could before (to put back
     * once this send is answered), or undefined when the voucher is settled or the lease is no
     * longer `fence`'s: then nothing may be sent.
     */
    async markResending(
      id: string,
      inFlightMs: number,
      fence?: LeaseFence,
    ): Promise<{ before: Date | null } | undefined> {
      const row = await db
        .with("before", (qc) =>
          qc
            .selectFrom("comprobantes")
            .select(["id", "in_flight_until"])
            .where("id", "=", id)
            .where("state", "in", UNRESOLVED)
            .forUpdate(),
        )
        .updateTable("comprobantes")
        .from("before")
        .whereRef("comprobantes.id", "=", "before.id")
        .where((eb) => (fence ? leaseHeld(eb, fence) : eb.lit(true)))
        .set({
          in_flight_until: sql<Date>`greatest(before.in_flight_until, ${msFromNow(inFlightMs)})`,
          resends: sql<number>`comprobantes.resends + 1`,
          updated_at: sql<Date>`now()`,
        })
        .returning("before.in_flight_until as before")
        .executeTakeFirst();
      return row && { before: row.before };
    },

    /**
     * A send of these vouchers was answered (or can no longer land): until when one could
     * reach the authority goes back to what it was before it (`until`; null when it was the
     * only one). Only while `fence` still holds: a later holder's own sends are never
     * forgotten.
     */
    async endSend(ids: readonly string[], until: Date | null, fence?: LeaseFence): Promise<void> {
      if (ids.length === 0) return;
      let query = db
        .updateTable("comprobantes")
        .where("id", "in", ids)
        .where("state", "in", UNRESOLVED)
        .set({ in_flight_until: until });
      if (fence) query = query.where((eb) => leaseHeld(eb, fence));
      await query.execute();
    },

    /**
     * No more sends of the voucher by reconciliation: it waits until none made can land. Only
     * while `fence` holds.
     */
    async stopResending(id: string, resends: number, fence?: LeaseFence): Promise<void> {
      let query = db
        .updateTable("comprobantes")
        .where("id", "=", id)
        .where("state", "in", UNRESOLVED)
        .set({ resends: sql<number>`greatest(resends, ${resends})` });
      if (fence) query = query.where((eb) => leaseHeld(eb, fence));
      await query.execute();
    },

    /** The vouchers among `ids` that a send already made may still reach the authority with. */
    async inFlight(ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom("comprobantes")
        .select("id")
        .where("id", "in", ids)
        .where("in_flight_until", ">", sql<Date>`now()`)
        .execute();
      return new Set(rows.map((r) => r.id));
    },
  };
}
