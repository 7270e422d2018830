import { billing } from "@pasarela/contracts";
import type { Kysely, Selectable } from "kysely";
import type { BillingDatabase, CuotaAlertasTable, QuotaResource } from "../database.js";

export type CuotaAlertaRow = Selectable<CuotaAlertasTable>;

/** The thresholds crossed per account, resource and period, and which were announced. */
export function makeCuotaAlertasRepository(db: Kysely<BillingDatabase>) {
  return {
    /** Records a crossing once: a second one of the same period and threshold changes nothing. */
    async record(alerta: {
      accountId: string;
      resource: QuotaResource;
      period: { start: Date; end: Date };
      umbral: billing.CuotaUmbral;
      used: number;
      quota: number;
      at: Date;
    }): Promise<void> {
      await db
        .insertInto("cuota_alertas")
        .values({
          id: billing.cuotaAlertaId(
            alerta.accountId,
            alerta.resource,
            alerta.period.start,
            alerta.umbral,
          ),
          account_id: alerta.accountId,
          resource: alerta.resource,
          period_start: alerta.period.start,
          period_end: alerta.period.end,
          umbral: alerta.umbral,
          used: alerta.used,
          quota: alerta.quota,
          created_at: alerta.at,
        })
        .onConflict((oc) => oc.column("id").doNothing())
        .execute();
    },
    /** Crossings not yet announced, oldest first. */
    unpublished: (limit: number): Promise<CuotaAlertaRow[]> =>
      db
        .selectFrom("cuota_alertas")
        .selectAll()
        .where("published_at", "is", null)
        .orderBy("created_at")
        .limit(limit)
        .execute(),
    async markPublished(id: string, at: Date): Promise<void> {
      await db
        .updateTable("cuota_alertas")
        .set({ published_at: at })
        .where("id", "=", id)
        .where("published_at", "is", null)
        .execute();
    },
  };
}

export type CuotaAlertasRepository = ReturnType<typeof makeCuotaAlertasRepository>;
