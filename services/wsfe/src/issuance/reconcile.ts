import { appError, authorityUnavailable, fail, ok, type Result } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { WsfeAdapter, WsfeCaller } from "../adapters/wsfe.js";
import type { ComprobantesRepository, StoredComprobante } from "../db/repositories/comprobantes.js";
import type { SeriesKey, SeriesRepository } from "../db/repositories/series.js";
import { isSameVoucher } from "../domain/reconciliation.js";
import type { VoucherEvents } from "./events.js";
import type { HeldSeries } from "./series-writer.js";

/**
 * Settles, before a series issues again, every voucher of it left `pending` or `unknown`, so
 * the live-number index never blocks the series and nothing is issued twice. Runs as the
 * series' writer, with the last number the authority authorized (FECompUltimoAutorizado).
 */
export type Reconciler = (
  caller: WsfeCaller,
  series: SeriesKey,
  ultimoAutorizado: number,
  /** the series' vouchers still `pending` or `unknown` (`unresolved`), read by the writer */
  open: readonly StoredComprobante[],
  held: HeldSeries,
) => Promise<Result<void>>;

/**
 * authority-ws.md §8.4, one voucher at a time, lowest number first:
 * - a number above the last authorized was never used (numbers are consecutive): not issued;
 * - otherwise FECompConsultar: the voucher the gateway sent (same date, receiver, amounts)
 *   → adopt its CAE, authorized; someone else's → conflict, never adopted; no answer → the
 *   series stays blocked (502) until the authority answers.
 * Each settled voucher's event is published (autorizado, or no_emitido for a voucher never
 * issued or in conflict), so billing completes the caller's idempotency record and counts
 * quota once. Runs before a series issues, at start-up and periodically (sweep.ts).
 */
export function makeReconciler(deps: {
  wsfe: Pick<WsfeAdapter, "consultar">;
  comprobantes: Pick<ComprobantesRepository, "markAuthorized" | "markNotIssued" | "markConflict">;
  series: Pick<SeriesRepository, "flagReconciliation">;
  events: VoucherEvents;
  logger: Logger;
}): Reconciler {
  return async (caller, series, ultimoAutorizado, open, held) => {
    for (const voucher of open) {
      const where = { comprobanteId: voucher.id, cbteNro: voucher.cbteNro, ultimoAutorizado };
      if (voucher.cbteNro > ultimoAutorizado) {
        const settled = await deps.comprobantes.markNotIssued(voucher.id, {
          reconciliation: "number never used",
          ultimoAutorizado,
        });
        if (settled) await deps.events.publishOutcome(settled);
        deps.logger.info(where, "reconciled: never issued");
        continue;
      }
      if (!(await held.renew())) {
        return fail(appError("SERVICE_UNAVAILABLE", { reason: "series lease lost" }));
      }
      const lookup = await deps.wsfe.consultar(caller, {
        ptoVta: series.ptoVta,
        cbteTipo: series.cbteTipo,
        cbteNro: voucher.cbteNro,
      });
      if (!lookup.ok) return lookup;
      const authority = lookup.value;
      if (authority === undefined) {
        return fail(
          authorityUnavailable(
            `FECompConsultar no encuentra el comprobante ${voucher.cbteNro} aunque el último autorizado es ${ultimoAutorizado}`,
            { cbteNro: voucher.cbteNro, ultimoAutorizado },
          ),
        );
      }
      if (isSameVoucher(voucher.sent, authority)) {
        const adopted = await deps.comprobantes.markAuthorized(voucher.id, {
          cae: authority.codAutorizacion,
          caeVencimiento: authority.fchVto ?? "",
          observaciones: [],
          eventos: [],
        });
        if (adopted) await deps.events.publishOutcome(adopted);
        deps.logger.info(where, "reconciled: authorized, CAE adopted");
      } else {
        const settled = await deps.comprobantes.markConflict(voucher.id, {
          reconciliation: "number used by another voucher",
          authority,
        });
        if (settled) await deps.events.publishOutcome(settled);
        deps.logger.warn(where, "reconciled: the number holds another voucher");
      }
    }
    if (open.length > 0) await deps.series.flagReconciliation(series, false);
    return ok(undefined);
  };
}
