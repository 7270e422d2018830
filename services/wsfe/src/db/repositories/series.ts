import { sql, type Kysely } from "kysely";
import type { WsfeDatabase } from "../database.js";

/** A numbering unit of the authority: exactly the header of one FECAESolicitar. */
export interface SeriesKey {
  readonly environment: "homologacion" | "produccion";
  readonly cuit: string;
  readonly ptoVta: number;
  readonly cbteTipo: number;
}

/**
 * Who holds a series' writer lease. A statement that carries it runs only while that owner
 * still holds an unexpired lease, and keeps the lease from changing hands until it commits:
 * whatever it writes is ordered before anything a later holder reads.
 */
export interface LeaseFence {
  readonly series: SeriesKey;
  readonly owner: string;
}

/**
 * The series rows and their writer lease. Every call is one short statement outside any
 * transaction: an issuer holds no pooled connection while it waits on the authority.
 */
export function makeSeriesRepository(db: Kysely<WsfeDatabase>) {
  const forKey = (key: SeriesKey) =>
    db
      .updateTable("series")
      .where("environment", "=", key.environment)
      .where("cuit", "=", key.cuit)
      .where("pto_vta", "=", key.ptoVta)
      .where("cbte_tipo", "=", key.cbteTipo);
  const until = (leaseMs: number) => sql<Date>`now() + ${leaseMs} * interval '1 millisecond'`;

  return {
    /**
     * Takes the writer lease (creating the row if needed) unless another owner holds one that
     * has not run out by the database's clock; the owner that holds it takes it again. True
     * when `owner` holds it now.
     */
    async takeLease(key: SeriesKey, owner: string, leaseMs: number): Promise<boolean> {
      const row = await db
        .insertInto("series")
        .values({
          environment: key.environment,
          cuit: key.cuit,
          pto_vta: key.ptoVta,
          cbte_tipo: key.cbteTipo,
          writer_owner: owner,
          writer_lease_until: until(leaseMs),
        })
        .onConflict((oc) =>
          oc
            .columns(["environment", "cuit", "pto_vta", "cbte_tipo"])
            .doUpdateSet({
              writer_owner: owner,
              writer_lease_until: until(leaseMs),
              updated_at: sql<Date>`now()`,
            })
            .where((eb) =>
              eb.or([
                eb("series.writer_owner", "is", null),
                eb("series.writer_owner", "=", owner),
                eb("series.writer_lease_until", "is", null),
                eb("series.writer_lease_until", "<=", sql<Date>`now()`),
              ]),
            ),
        )
        .returning("writer_owner")
        .executeTakeFirst();
      return row?.writer_owner === owner;
    },

    /** Extends the lease `owner` still holds; false when it ran out and someone else took it. */
    async renewLease(key: SeriesKey, owner: string, leaseMs: number): Promise<boolean> {
      const result = await forKey(key)
        .set({ writer_lease_until: until(leaseMs), updated_at: sql<Date>`now()` })
        .where("writer_owner", "=", owner)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Gives the lease back; a no-op when another owner took it meanwhile. */
    async releaseLease(key: SeriesKey, owner: string): Promise<void> {
      await forKey(key)
        .set({ writer_owner: null, writer_lease_until: null, updated_at: sql<Date>`now()` })
        .where("writer_owner", "=", owner)
        .execute();
    },

    /** Marks (or clears) that the series has a voucher without a usable answer. */
    async flagReconciliation(key: SeriesKey, needed: boolean): Promise<void> {
      await forKey(key)
        .set({ needs_reconciliation: needed, updated_at: sql<Date>`now()` })
        .where("needs_reconciliation", "!=", needed)
        .execute();
    },

    async find(key: SeriesKey) {
      return db
        .selectFrom("series")
        .selectAll()
        .where("environment", "=", key.environment)
        .where("cuit", "=", key.cuit)
        .where("pto_vta", "=", key.ptoVta)
        .where("cbte_tipo", "=", key.cbteTipo)
        .executeTakeFirst();
    },
  };
}

export type SeriesRepository = ReturnType<typeof makeSeriesRepository>;
