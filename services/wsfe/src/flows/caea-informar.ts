import type { Bus } from "@pasarela/bus";
import { appError, authorityUnavailable, fail, ok, type Result } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { WsfeCaeaInformeAdapter } from "../adapters/wsfe-caea-informe.js";
import type { VoucherAuthority } from "../adapters/voucher-authority.js";
import type { WsfeAdapter, WsfeCaller } from "../adapters/wsfe.js";
import type { CaeasRepository } from "../db/repositories/caeas.js";
import type { CaeaInformesRepository, SerieAInformar } from "../db/repositories/caea-informes.js";
import type { StoredComprobante } from "../db/repositories/comprobante-rows.js";
import type { SeriesKey } from "../db/repositories/series.js";
import { esperaTrasIntentos, isSameCaeaVoucher, juzgarInforme } from "../domain/caea/informe.js";
import type { FECAEDetRequest } from "../domain/issuance/index.js";
import { makeAvisoAlTitular } from "./aviso-al-titular.js";
import { holdSeries } from "./caea-informe-detenido.js";
import { makeCaeaInformeEventos } from "./caea-informe-eventos.js";
import { makePorVencer } from "./caea-por-vencer.js";
import { makeSinMovimiento } from "./caea-sin-movimiento.js";
import { startPeriodic, type PeriodicPass } from "./periodic.js";
import type { HeldSeries, SeriesWriter } from "./series-writer.js";

/** the most pending vouchers one series informs in one pass */
const POR_PASADA = 2_000;
/** FECompConsultar calls made at once when several numbers are to be looked up */
const LOOKUPS_AT_ONCE = 8;

export interface CaeaInformer {
  /** one pass: every series with vouchers pending informing, no-movement, alerts; never throws */
  run(): Promise<void>;
  /** no further pass starts; resolves once the pass under way (if any) has ended */
  stop(): Promise<void>;
}

/** What settles a series on one pass: how many vouchers it informed or rejected. */
interface SeriesOutcome {
  readonly informados: number;
  readonly rechazados: number;
}

/**
 * Informs the authority (FECAEARegInformativo) of every voucher issued under a CAEA, as soon as
 * it answers: per series, as the series' writer (its lease, the one issuance takes: one
 * instance at a time), in numbering order, in batches of up to FECompTotXRequest. Everything it
 * knows is in PostgreSQL, so a restart resumes where the last pass was cut.
 *
 * Each series starts from the authority's own count (FECompUltimoAutorizado on the CAEA point
 * of sale): a pending voucher at or below it was informed by an attempt whose answer was lost
 * (a timeout, a crash), and FECompConsultar proves it (EmisionTipo CAEA, this CAEA, the data
 * handed to the customer) before anything is sent again; the rest go from last + 1 on. Sending a
 * voucher twice cannot inform it twice (the second copy is not the next number, 703), which is
 * what makes a lost answer harmless.
 *
 * An answer is read as a prefix (see juzgarInforme): accepted → informado and
 * `comprobante.caea_informado`; the first voucher judged and refused → caea_rechazado,
 * `comprobante.caea_rechazado` and an e-mail to the account's owner with the authority's codes.
 * Since the authority only takes last + 1, the vouchers after a rejected one wait (the series is
 * held, the gauge says so) until the rejected number is informed at the authority some other
 * way; they are then informed without anyone asking. A request refused as a whole (701, 780…)
 * or left without an answer keeps the vouchers pending, and the series waits longer after each
 * such failure (`retryBaseMs` doubling up to `retryMaxMs`).
 *
 * Each pass then sends again the events that did not get out (caea-informe-eventos.ts),
 * declares the points of sale without movement (caea-sin-movimiento.ts) and raises the deadline
 * alert (caea-por-vencer.ts).
 */
export function startCaeaInformer(deps: {
  bus: Pick<Bus, "request" | "publish">;
  authority: Pick<VoucherAuthority, "ultimoAutorizado" | "perRequest">;
  wsfe: Pick<WsfeAdapter, "consultar">;
  informe: WsfeCaeaInformeAdapter;
  informes: CaeaInformesRepository;
  caeas: Pick<CaeasRepository, "find">;
  writer: SeriesWriter;
  logger: Logger;
  intervalMs: number;
  /** the wait after a series' first failed attempt, doubling with each one */
  retryBaseMs: number;
  retryMaxMs: number;
  /** how long one series may wait for its lease and its authority calls */
  waitMs: number;
  now?: () => number;
}): CaeaInformer {
  const now = deps.now ?? Date.now;
  const log = deps.logger;
  const aviso = makeAvisoAlTitular({ bus: deps.bus, logger: log, now });
  const eventos = makeCaeaInformeEventos({ ...deps, aviso, now });
  const declareSinMovimiento = makeSinMovimiento(deps);
  const alertDeadlines = makePorVencer({ ...deps, aviso });
  const stopping = () => periodic.stopped;

  /**
   * A voucher that can never be informed: caea_rechazado (while the lease holds), its event and
   * the owner's e-mail. False when its row had already moved on.
   */
  async function reject(
    v: StoredComprobante,
    rechazo: Parameters<CaeaInformesRepository["markRechazado"]>[1],
    held: HeldSeries,
    context: Record<string, unknown>,
    message: string,
  ): Promise<boolean> {
    const rejected = await deps.informes.markRechazado(v.id, rechazo, held.fence);
    if (!rejected) return false;
    await eventos.publish([rejected]);
    log.warn({ comprobanteId: v.id, cbteNro: v.cbteNro, ...context }, message);
    return true;
  }

  /** The pending vouchers at or below the authority's last: informed by a lost attempt? */
  async function reconcile(
    caller: WsfeCaller,
    series: SeriesKey,
    used: readonly StoredComprobante[],
    last: number,
    held: HeldSeries,
  ): Promise<Result<SeriesOutcome>> {
    let informados = 0;
    let rechazados = 0;
    for (let i = 0; i < used.length; i += LOOKUPS_AT_ONCE) {
      const chunk = used.slice(i, i + LOOKUPS_AT_ONCE);
      const looked = await Promise.all(
        chunk.map((v) => deps.wsfe.consultar(caller, { ...series, cbteNro: v.cbteNro })),
      );
      const same: StoredComprobante[] = [];
      for (const [j, v] of chunk.entries()) {
        const found = looked[j]!;
        if (!found.ok) return found;
        if (found.value === undefined) {
          return fail(
            authorityUnavailable(
              `la AFIP no encuentra el comprobante ${v.cbteNro} aunque el último informado es ${last}`,
              { cbteNro: v.cbteNro, ultimoAutorizado: last },
            ),
          );
        }
        if (isSameCaeaVoucher(v.sent as FECAEDetRequest, v.cae ?? "", found.value)) {
          same.push(v);
          continue;
        }
        // the number holds another voucher at the authority (informed some other way, or not
        // this one): this one can never be informed under it
        const authority = found.value;
        const rejected = await reject(
          v,
          {
            observaciones: [],
            errores: [],
            eventos: [],
            failure: {
              reconciliation: "number holds another voucher",
              authority: {
                emisionTipo: authority.emisionTipo ?? null,
                codAutorizacion: authority.codAutorizacion,
                cbteFch: authority.cbteFch,
                impTotal: authority.impTotal,
              },
            },
          },
          held,
          { ultimoAutorizado: last },
          "CAEA voucher reconciled: the number holds another voucher",
        );
        if (rejected) rechazados++;
      }
      const adopted = await deps.informes.markInformados(
        same.map((v) => ({ id: v.id, observaciones: [], eventos: [] })),
      );
      informados += adopted.length;
      await eventos.publish(adopted);
      if (adopted.length > 0) {
        log.info(
          { series, count: adopted.length, ultimoAutorizado: last },
          "CAEA vouchers reconciled: informed by an earlier attempt",
        );
      }
    }
    return ok({ informados, rechazados });
  }

  /** One series, as its writer: reconcile, then inform from last + 1 in order. */
  async function informSeries(
    caller: WsfeCaller,
    series: SeriesKey,
    held: HeldSeries,
  ): Promise<Result<SeriesOutcome>> {
    let informados = 0;
    let rechazados = 0;
    const total = () => ok({ informados, rechazados });
    const perRequest = await deps.authority.perRequest(caller, series.cbteTipo);
    if (!perRequest.ok) return perRequest;
    for (;;) {
      if (stopping()) return total();
      if (!(await held.renew())) {
        return fail(appError("SERVICE_UNAVAILABLE", { reason: "series lease lost" }));
      }
      const pending = await deps.informes.pendientes(series, POR_PASADA);
      if (pending.length === 0) {
        holdSeries(series, false);
        return total();
      }
      const ultimo = await deps.authority.ultimoAutorizado(caller, series);
      if (!ultimo.ok) {
        await deps.informes.markNoInformados([pending[0]!.id], ultimo.error, true);
        return ultimo;
      }
      const last = ultimo.value;
      const used = pending.filter((v) => v.cbteNro <= last);
      if (used.length > 0) {
        const settled = await reconcile(caller, series, used, last, held);
        if (!settled.ok) {
          await deps.informes.markNoInformados([used[0]!.id], settled.error, true);
          return settled;
        }
        informados += settled.value.informados;
        rechazados += settled.value.rechazados;
        // one left unsettled (its row changed meanwhile, the lease ran down): next pass
        if (settled.value.informados + settled.value.rechazados < used.length) return total();
      }
      const free = pending.filter((v) => v.cbteNro > last);
      const first = free[0];
      if (!first) continue;
      if (first.cbteNro !== last + 1) {
        // the authority takes only last + 1: a number in between is not informed
        await blocked(series, free, last);
        return total();
      }
      const batch: StoredComprobante[] = [];
      for (const v of free) {
        if (batch.length >= perRequest.value || v.cbteNro !== first.cbteNro + batch.length) break;
        batch.push(v);
      }
      const sent = await send(caller, series, batch, held);
      if (!sent.ok) return sent;
      informados += sent.value.informados;
      rechazados += sent.value.rechazados;
      // a batch held back, or cut short, ends the series' turn on this pass; after a rejection
      // the series is read again (and found held below the next number)
      if (sent.value.informados < batch.length && sent.value.rechazados === 0) return total();
    }
  }

  /** The series is blocked below its lowest pending voucher: noted on it, counted, alerted. */
  async function blocked(
    series: SeriesKey,
    free: readonly StoredComprobante[],
    last: number,
  ): Promise<void> {
    const rejected = await deps.informes.rechazado(series, last + 1);
    const failure = rejected
      ? {
          reason: "blocked by a voucher rejected at informing",
          cbteNro: last + 1,
          comprobanteId: rejected.id,
          ultimoInformado: last,
        }
      : {
          reason: "the authority's last informed number is not the one before",
          ultimoInformado: last,
        };
    // counted as a failed pass: a series held until someone acts at the authority is looked at
    // again less and less often (up to `retryMaxMs`), not on every pass
    await deps.informes.markNoInformados(
      free.map((v) => v.id),
      failure,
      true,
    );
    holdSeries(series, true);
    log.warn({ series, ...failure, next: free[0]!.cbteNro }, "CAEA informing held");
  }

  /** One FECAEARegInformativo of consecutive vouchers, and what its answer settles. */
  async function send(
    caller: WsfeCaller,
    series: SeriesKey,
    batch: readonly StoredComprobante[],
    held: HeldSeries,
  ): Promise<Result<SeriesOutcome>> {
    const detalles = batch.map((v) => ({
      sent: v.sent as FECAEDetRequest,
      caea: v.cae ?? "",
      cbteFchHsGen: v.caea?.cbteFchHsGen ?? "",
    }));
    const outcome = await deps.informe.informar(
      caller,
      { ptoVta: series.ptoVta, cbteTipo: series.cbteTipo, detalles },
      { mayStart: () => held.fence?.mayStart() ?? true },
    );
    const ids = batch.map((v) => v.id);
    if (outcome.kind !== "judged") {
      // nothing known, or nothing informed: the next attempt starts from the authority's count
      await deps.informes.markNoInformados(ids, outcome.error, true);
      log.warn(
        { series, count: batch.length, outcome: outcome.kind, error: outcome.error.message },
        "CAEA vouchers not informed on this attempt",
      );
      return fail(outcome.error);
    }
    const veredicto = juzgarInforme(
      batch.map((v) => v.cbteNro),
      outcome,
    );
    const byNro = new Map(batch.map((v) => [v.cbteNro, v]));
    const informed = await deps.informes.markInformados(
      veredicto.informados.map((i) => ({
        id: byNro.get(i.cbteNro)!.id,
        observaciones: i.observaciones,
        eventos: outcome.eventos,
      })),
    );
    await eventos.publish(informed);
    if (informed.length > 0) {
      log.info({ series, count: informed.length }, "CAEA vouchers informed");
      holdSeries(series, false);
    }
    let rechazados = 0;
    const refused = veredicto.rechazado;
    if (refused) {
      const rejected = await reject(
        byNro.get(refused.cbteNro)!,
        {
          observaciones: refused.observaciones,
          errores: refused.errores,
          eventos: outcome.eventos,
          failure: { reason: "rejected at informing" },
        },
        held,
        { codes: [...refused.observaciones, ...refused.errores].map((e) => e.code) },
        "CAEA voucher rejected at informing",
      );
      if (rejected) rechazados++;
    }
    if (veredicto.detenido) {
      const from = veredicto.detenido.cbteNro;
      await deps.informes.markNoInformados(
        batch.filter((v) => v.cbteNro >= from).map((v) => v.id),
        { reason: "refused by the authority", errores: veredicto.detenido.errores },
        true,
      );
      holdSeries(series, true);
      log.warn(
        { series, cbteNro: from, codes: veredicto.detenido.errores.map((e) => e.code) },
        "CAEA informing refused by the authority: held back",
      );
    }
    return ok({ informados: informed.length, rechazados });
  }

  /** Whether a series that failed lately has waited long enough for another attempt. */
  const due = (s: SerieAInformar) =>
    now() >=
    s.updatedAt.getTime() + esperaTrasIntentos(s.intentos, deps.retryBaseMs, deps.retryMaxMs);

  async function informAll(): Promise<void> {
    for (const s of await deps.informes.seriesPendientes()) {
      if (stopping()) return;
      if (!due(s)) continue;
      const deadline = now() + deps.waitMs;
      const { series } = s;
      const done = await deps.writer.run(series, deadline, (held) =>
        informSeries(
          { accountId: s.accountId, cuit: series.cuit, environment: series.environment, deadline },
          series,
          held,
        ),
      );
      if (!done.ok) {
        log.warn({ series, error: done.error.message }, "CAEA series not informed yet");
      }
    }
  }

  async function pass(): Promise<void> {
    await informAll();
    if (stopping()) return;
    await eventos.republish();
    if (stopping()) return;
    await declareSinMovimiento(stopping);
    if (stopping()) return;
    await alertDeadlines(stopping);
  }

  const periodic: PeriodicPass = startPeriodic({
    pass,
    intervalMs: deps.intervalMs,
    logger: deps.logger,
    what: "CAEA informing pass",
  });
  return periodic;
}
