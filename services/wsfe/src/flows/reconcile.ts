import {
  appError,
  authorityUnavailable,
  fail,
  ok,
  type AppError,
  type Result,
} from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { VoucherAuthority } from "../adapters/voucher-authority.js";
import type { WsfeCaller } from "../adapters/wsfe.js";
import type { ComprobantesRepository, StoredComprobante } from "../db/repositories/comprobantes.js";
import type { SeriesKey, SeriesRepository } from "../db/repositories/series.js";
import type { VoucherEvents } from "./events.js";
import type { HeldSeries } from "./series-writer.js";

/**
 * Settles, before a series issues again, every voucher of it left `pending` or `unknown`, so
 * the live-number index never blocks the series and nothing is issued twice. Runs as the
 * series' writer, with the last number the authority authorized (FECompUltimoAutorizado), and
 * answers the last authorized once settled (higher when a voucher sent again was authorized).
 */
export type Reconciler = (
  caller: WsfeCaller,
  series: SeriesKey,
  ultimoAutorizado: number,
  /** the series' vouchers still `pending` or `unknown` (`unresolved`), read by the writer */
  open: readonly StoredComprobante[],
  held: HeldSeries,
) => Promise<Result<number>>;

export interface ReconcilerDeps {
  authority: Pick<VoucherAuthority, "comparar" | "solicitar" | "ultimoAutorizado">;
  comprobantes: Pick<
    ComprobantesRepository,
    | "markAuthorized"
    | "markNotIssued"
    | "markConflict"
    | "markUnknown"
    | "markResending"
    | "stopResending"
    | "endSend"
    | "inFlight"
  >;
  series: Pick<SeriesRepository, "flagReconciliation">;
  events: Pick<VoucherEvents, "publishOutcome" | "publishOutcomes">;
  logger: Logger;
  /** AUTHORITY_TIMEOUT_MS: a voucher is sent again only while a whole call fits the deadline */
  authorityTimeoutMs: number;
  /** how long after a send starts it may still reach the authority (see batches.ts) */
  inFlightMs: number;
  now?: () => number;
}

/** FECompConsultar calls made at once when several numbers are to be looked up */
const LOOKUPS_AT_ONCE = 8;
/**
 * Sends of one voucher again, in all (counted on its row): each one that gets no answer may
 * still land and pushes on the time its number is waited for, so without a bound a series
 * whose copies keep getting lost would wait forever.
 */
export const MAX_RESENDS = 3;
/** room to store the answer of a voucher sent again, as an issuance keeps */
const RESEND_MARGIN_MS = 2_000;

const leaseLost = () => fail(appError("SERVICE_UNAVAILABLE", { reason: "series lease lost" }));

/**
 * How a voucher left without an answer is settled, lowest number first:
 * - a number the authority already used: FECompConsultar; the voucher the gateway sent (same
 *   date, receiver, amounts) → adopt its CAE, authorized; someone else's → conflict, never
 *   adopted; no answer → the series stays blocked (502) until the authority answers;
 * - a number still free, with no send of the voucher able to reach the authority any more (see
 *   `in_flight_until`): never issued;
 * - a number still free while a send of it may still land: the writer that sent it died or
 *   lost its lease mid-call (the lease is short, the call is not), and its FECAESolicitar can
 *   arrive after this reconciliation. Declaring it "never issued" could then be contradicted
 *   by the authority. So the same request, with the same number, is sent again: numbering is
 *   consecutive, so of the copies at most one is authorized, the others are rejected as not
 *   the next number (10016), or refused while the first is processed ("Transacción Activa",
 *   502). Authorized → adopted; anything else → FECompUltimoAutorizado again, and the number,
 *   now used, is settled by FECompConsultar as above. A copy rejected on its own merits while
 *   its number stays free settles nothing (the earlier copy may still be judged otherwise):
 *   the series waits until no send can land, and the voucher is then never issued.
 * Each settled voucher's event is published (autorizado, or no_emitido for a voucher never
 * issued or in conflict), so billing completes the caller's idempotency record and counts
 * quota once. Runs before a series issues, at start-up and periodically (sweep.ts).
 */
export function makeReconciler(deps: ReconcilerDeps): Reconciler {
  const now = deps.now ?? Date.now;

  /** A voucher whose number the authority used: its CAE adopted, or a conflict. */
  async function settleUsed(
    caller: WsfeCaller,
    series: SeriesKey,
    voucher: StoredComprobante,
    last: number,
    held: HeldSeries,
  ): Promise<Result<void>> {
    const where = { comprobanteId: voucher.id, cbteNro: voucher.cbteNro, ultimoAutorizado: last };
    const lookup = await deps.authority.comparar(caller, voucher);
    if (!lookup.ok) return lookup;
    const found = lookup.value;
    if (found.kind === "absent") {
      return fail(
        authorityUnavailable(
          `la AFIP no encuentra el comprobante ${voucher.cbteNro} aunque el último autorizado es ${last}`,
          { cbteNro: voucher.cbteNro, ultimoAutorizado: last },
        ),
      );
    }
    if (found.kind === "same") {
      const adopted = await deps.comprobantes.markAuthorized(voucher.id, {
        cae: found.cae,
        caeVencimiento: found.caeVencimiento,
        observaciones: [],
        eventos: [],
      });
      if (adopted) await deps.events.publishOutcome(adopted);
      deps.logger.info(where, "reconciled: authorized, CAE adopted");
    } else {
      const settled = await deps.comprobantes.markConflict(
        voucher.id,
        { reconciliation: "number used by another voucher", authority: found.authority },
        held.fence,
      );
      if (settled) await deps.events.publishOutcome(settled);
      deps.logger.warn(where, "reconciled: the number holds another voucher");
    }
    return ok(undefined);
  }

  /**
   * Sends `voucher` again, exactly as stored. Answers whether this send was authorized, judged
   * otherwise, or left without an answer; a failure when it could not be sent.
   */
  async function sendAgain(
    caller: WsfeCaller,
    series: SeriesKey,
    voucher: StoredComprobante,
    held: HeldSeries,
  ): Promise<Result<"authorized" | "judged" | "unanswered">> {
    const where = { comprobanteId: voucher.id, cbteNro: voucher.cbteNro };
    if (caller.deadline !== undefined) {
      if (caller.deadline - now() < deps.authorityTimeoutMs + RESEND_MARGIN_MS) {
        return fail(
          authorityUnavailable(
            `el comprobante ${voucher.cbteNro} todavía puede llegar a la AFIP y no queda tiempo para verificarlo`,
            { cbteNro: voucher.cbteNro },
          ),
        );
      }
    }
    const startedAt = performance.now();
    const resending = await deps.comprobantes.markResending(
      voucher.id,
      deps.inFlightMs,
      held.fence,
    );
    if (!resending) return leaseLost();
    const mayStart = held.fence?.mayStart;
    const outcome = await deps.authority.solicitar(
      caller,
      { ptoVta: series.ptoVta, cbteTipo: series.cbteTipo, detalles: [voucher.sent] },
      // as any send: only while the lease holds, and soon enough after the statement that
      // dated it for `inFlightMs` to cover its arrival
      { mayStart: () => (mayStart?.() ?? true) && performance.now() - startedAt < deps.inFlightMs },
    );
    // this copy is answered: what may still land is what could before it
    const ended = () => deps.comprobantes.endSend([voucher.id], resending.before, held.fence);
    switch (outcome.kind) {
      case "refused":
        await ended();
        return fail(outcome.error);
      case "unknown":
        await deps.comprobantes.markUnknown(voucher.id, outcome.error);
        if (outcome.over) await ended();
        deps.logger.warn({ ...where, error: outcome.error.message }, "sent again: no answer");
        return ok("unanswered");
      case "judged": {
        const answer = outcome.detalles.find((d) => d.cbteDesde === voucher.cbteNro);
        if (answer?.resultado === "A") {
          const adopted = await deps.comprobantes.markAuthorized(voucher.id, {
            cae: answer.cae,
            caeVencimiento: answer.caeFchVto,
            observaciones: answer.observaciones,
            eventos: outcome.eventos,
          });
          if (adopted) await deps.events.publishOutcome(adopted);
          deps.logger.info(where, "reconciled: sent again and authorized");
          return ok("authorized");
        }
        await ended();
        const codes = [...outcome.errores, ...(answer?.observaciones ?? [])].map((e) => e.code);
        deps.logger.info({ ...where, codes }, "sent again: not authorized by this send");
        return ok("judged");
      }
    }
  }

  return async (caller, series, ultimoAutorizado, open, held) => {
    let last = ultimoAutorizado;
    let unsettled = [...open].sort((a, b) => a.cbteNro - b.cbteNro);
    for (;;) {
      if (unsettled.length > 0 && !(await held.renew())) return leaseLost();
      const used = unsettled.filter((v) => v.cbteNro <= last);
      for (let i = 0; i < used.length; i += LOOKUPS_AT_ONCE) {
        const looked = await Promise.all(
          used.slice(i, i + LOOKUPS_AT_ONCE).map((v) => settleUsed(caller, series, v, last, held)),
        );
        const failed = looked.find((r) => !r.ok);
        if (failed) return failed;
      }
      const free = unsettled.filter((v) => v.cbteNro > last);
      if (free.length === 0) break;

      const flying = await deps.comprobantes.inFlight(free.map((v) => v.id));
      for (const voucher of free.filter((v) => !flying.has(v.id))) {
        const settled = await deps.comprobantes.markNotIssued(
          voucher.id,
          { reconciliation: "number never used", ultimoAutorizado: last },
          held.fence,
        );
        if (settled) await deps.events.publishOutcome(settled);
        deps.logger.info(
          { comprobanteId: voucher.id, cbteNro: voucher.cbteNro, ultimoAutorizado: last },
          "reconciled: never issued",
        );
      }
      unsettled = free.filter((v) => flying.has(v.id));
      const next = unsettled[0];
      if (!next) break;
      // Only the next number can be decided now; a voucher above a gap, or one sent again
      // enough (or judged while its number stayed free), waits until none of its sends can land.
      if (next.cbteNro !== last + 1 || next.resends >= MAX_RESENDS) {
        return waitForLanding(series, next);
      }
      const sent = await sendAgain(caller, series, next, held);
      if (!sent.ok) return sent;
      if (sent.value === "authorized") {
        last = next.cbteNro;
        unsettled = unsettled.slice(1);
        continue;
      }
      // 10016, "Transacción Activa", no answer: where does numbering stand now?
      const fresh = await deps.authority.ultimoAutorizado(caller, {
        ptoVta: series.ptoVta,
        cbteTipo: series.cbteTipo,
      });
      if (!fresh.ok) return fresh;
      last = fresh.value;
      let resends = next.resends + 1;
      if (sent.value === "judged" && last < next.cbteNro) {
        // judged on its own merits, its number still free: the same request sent once more
        // would be judged the same, and could only push on the wait for the earlier one
        resends = MAX_RESENDS;
        await deps.comprobantes.stopResending(next.id, resends, held.fence);
      }
      unsettled[0] = { ...next, resends };
    }
    if (open.length > 0) await deps.series.flagReconciliation(series, false);
    return ok(last);
  };

  function waitForLanding(series: SeriesKey, voucher: StoredComprobante): Result<never> {
    const error: AppError = appError("SERVICE_UNAVAILABLE", {
      reason: "an earlier send of the series may still reach the authority",
      ptoVta: series.ptoVta,
      cbteTipo: series.cbteTipo,
      cbteNro: voucher.cbteNro,
    });
    deps.logger.warn({ cbteNro: voucher.cbteNro }, "series waits for an earlier send");
    return fail(error);
  }
}
