import { isUniqueViolation } from "@pasarela/db";
import { sql, type Kysely } from "kysely";
import type { WsfeDatabase } from "../database.js";
import { LIVE_KEY_INDEX, newRow, type InsertOutcome, type NewComprobante } from "./comprobantes.js";
import { toStored, type StoredComprobante } from "./comprobante-rows.js";
import type { SeriesKey } from "./series.js";

/** A voucher issued in contingency: numbered, authorized by the fortnight's CAEA. */
export interface NewCaeaComprobante extends NewComprobante {
  readonly caea: {
    readonly code: string;
    /** the CAEA's FchVigHasta, yyyymmdd */
    readonly vencimiento: string;
    readonly periodo: number;
    readonly orden: 1 | 2;
    /** when the voucher was generated, yyyymmddhhmmss in Argentina */
    readonly cbteFchHsGen: string;
  };
}

/** The states that hold a number of a series (migration 2027-01-05-01). */
const HOLDS_NUMBER = ["pending", "authorized", "unknown", "caea_rechazado"] as const;

/** The contingency vouchers' own statements; the rest of their life is a voucher's. */
export function makeCaeaComprobantesRepository(db: Kysely<WsfeDatabase>) {
  return {
    /** The highest number the gateway holds on the series, or undefined when it holds none. */
    async lastNumber(series: SeriesKey): Promise<number | undefined> {
      const row = await db
        .selectFrom("comprobantes")
        .select((eb) => eb.fn.max("cbte_nro").as("last"))
        .where("environment", "=", series.environment)
        .where("cuit", "=", series.cuit)
        .where("pto_vta", "=", series.ptoVta)
        .where("cbte_tipo", "=", series.cbteTipo)
        .where("state", "in", HOLDS_NUMBER)
        .executeTakeFirst();
      return row?.last === null || row?.last === undefined ? undefined : Number(row.last);
    },

    /**
     * Stores a contingency voucher authorized by its CAEA, awaiting informing, with its e-mail
     * record when it has a recipient: one transaction. Answers the stored voucher, or
     * "number-taken" / "key-live" as `insertPending` does.
     */
    async insertCaea(
      voucher: NewCaeaComprobante,
    ): Promise<StoredComprobante | Exclude<InsertOutcome, "stored">> {
      const { caea } = voucher;
      try {
        return await db.transaction().execute(async (tx) => {
          const row = await tx
            .insertInto("comprobantes")
            .values({
              ...newRow(voucher),
              state: "authorized",
              resultado: "A",
              cae: caea.code,
              cae_vencimiento: caea.vencimiento,
              answered_at: sql<Date>`now()`,
              tipo_autorizacion: "CAEA",
              caea_estado: "pendiente",
              caea_periodo: caea.periodo,
              caea_orden: caea.orden,
              cbte_fch_hs_gen: caea.cbteFchHsGen,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          if (row.email_to !== null) {
            await tx
              .insertInto("comprobantes_email")
              .values({
                account_id: row.account_id,
                environment: row.environment,
                cuit: row.cuit,
                pto_vta: row.pto_vta,
                cbte_tipo: row.cbte_tipo,
                cbte_nro: Number(row.cbte_nro),
                email_to: row.email_to,
                status: "pending",
              })
              .onConflict((oc) =>
                oc
                  .columns([
                    "account_id",
                    "environment",
                    "cuit",
                    "pto_vta",
                    "cbte_tipo",
                    "cbte_nro",
                  ])
                  .doNothing(),
              )
              .execute();
          }
          return toStored(row);
        });
      } catch (error) {
        if (isUniqueViolation(error, LIVE_KEY_INDEX)) return "key-live";
        if (isUniqueViolation(error)) return "number-taken";
        throw error;
      }
    },

    /** The vouchers one issuance call stored (its request id), whatever their state. */
    async ofRequest(accountId: string, requestId: string): Promise<StoredComprobante[]> {
      const rows = await db
        .selectFrom("comprobantes")
        .selectAll()
        .where("account_id", "=", accountId)
        .where("request_id", "=", requestId)
        .orderBy("created_at")
        .execute();
      return rows.map(toStored);
    },
  };
}

export type CaeaComprobantesRepository = ReturnType<typeof makeCaeaComprobantesRepository>;
