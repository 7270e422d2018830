import { sql, type Kysely } from "kysely";
import type { WsfeDatabase } from "../database.js";
import { toStored, UNRESOLVED, type StoredComprobante } from "./comprobante-rows.js";
import type { SeriesKey } from "./series.js";

/** What the vouchers' repository reads: by id, by key, by series, and what is left to do. */
export function makeComprobanteReads(db: Kysely<WsfeDatabase>) {
  return {
    /** Vouchers of the series still `pending` or `unknown`, lowest number first. */
    async unresolved(series: SeriesKey): Promise<StoredComprobante[]> {
      const rows = await db
        .selectFrom("comprobantes")
        .selectAll()
        .where("environment", "=", series.environment)
        .where("cuit", "=", series.cuit)
        .where("pto_vta", "=", series.ptoVta)
        .where("cbte_tipo", "=", series.cbteTipo)
        .where("state", "in", UNRESOLVED)
        .orderBy("cbte_nro")
        .execute();
      return rows.map(toStored);
    },

    /**
     * The account's voucher with a final verdict named by its series and number: the
     * authorized one (or the CAEA voucher refused at informing, which keeps its number) when
     * the number was given back by a rejection and used again, else the latest rejection.
     */
    async findIssued(
      accountId: string,
      key: SeriesKey & { readonly cbteNro: number },
    ): Promise<StoredComprobante | undefined> {
      const row = await db
        .selectFrom("comprobantes")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("environment", "=", key.environment)
        .where("cuit", "=", key.cuit)
        .where("pto_vta", "=", key.ptoVta)
        .where("cbte_tipo", "=", key.cbteTipo)
        .where("cbte_nro", "=", String(key.cbteNro))
        .where("state", "in", ["authorized", "rejected", "caea_rechazado"])
        .orderBy(sql`state in ('authorized', 'caea_rechazado')`, "desc")
        .orderBy("created_at", "desc")
        .limit(1)
        .executeTakeFirst();
      return row && toStored(row);
    },

    /**
     * Every series with a voucher left `pending` or `unknown`, with the account of its oldest
     * one (whose access ticket reconciles it), for the start-up and periodic sweep.
     */
    async unresolvedSeries(): Promise<{ series: SeriesKey; accountId: string }[]> {
      const rows = await db
        .selectFrom("comprobantes")
        .select(["environment", "cuit", "pto_vta", "cbte_tipo", "account_id"])
        .distinctOn(["environment", "cuit", "pto_vta", "cbte_tipo"])
        .where("state", "in", UNRESOLVED)
        .orderBy("environment")
        .orderBy("cuit")
        .orderBy("pto_vta")
        .orderBy("cbte_tipo")
        .orderBy("cbte_nro")
        .execute();
      return rows.map((r) => ({
        series: {
          environment: r.environment,
          cuit: r.cuit,
          ptoVta: r.pto_vta,
          cbteTipo: r.cbte_tipo,
        },
        accountId: r.account_id,
      }));
    },

    /**
     * Authorized or rejected vouchers whose event never reached JetStream (the process died
     * between storing and publishing), settled at least `olderThanMs` ago.
     */
    async unpublished(olderThanMs: number, limit: number): Promise<StoredComprobante[]> {
      const rows = await db
        .selectFrom("comprobantes")
        .selectAll()
        .where("state", "in", ["authorized", "rejected"])
        .where("event_published_at", "is", null)
        .where("updated_at", "<", sql<Date>`now() - ${olderThanMs} * interval '1 millisecond'`)
        .orderBy("updated_at")
        .limit(limit)
        .execute();
      return rows.map(toStored);
    },

    /** The account's vouchers sent under an Idempotency-Key, newest first. */
    async byIdempotencyKey(accountId: string, key: string): Promise<StoredComprobante[]> {
      const rows = await db
        .selectFrom("comprobantes")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("idempotency_key", "=", key)
        .orderBy("created_at", "desc")
        .execute();
      return rows.map(toStored);
    },

    async find(id: string): Promise<StoredComprobante | undefined> {
      const row = await db
        .selectFrom("comprobantes")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirst();
      return row && toStored(row);
    },
  };
}
