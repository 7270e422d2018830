import { authorityNow } from "@pasarela/authority";
import type { Bus } from "@pasarela/bus";
import { billing, mail, ticket, wsfe } from "@pasarela/contracts";
import { appError, authorityUnavailable, fail, ok, type Result } from "@pasarela/errors";
import { gauge } from "@pasarela/telemetry";
import type { Logger } from "@pasarela/telemetry";
import type { WsfeCaeaInformeAdapter } from "../adapters/wsfe-caea-informe.js";
import type { VoucherAuthority } from "../adapters/voucher-authority.js";
import type { WsfeAdapter, WsfeCaller } from "../adapters/wsfe.js";
import type { CaeasRepository } from "../db/repositories/caeas.js";
import type {
  CaeaInformesRepository,
  CaeaSinInformar,
  SerieAInformar,
} from "../db/repositories/caea-informes.js";
import type { StoredComprobante } from "../db/repositories/comprobante-rows.js";
import type { SeriesKey } from "../db/repositories/series.js";
import { avisoJobId } from "../domain/caea/aviso.js";
import { avisoCaeaPorVencer, avisoCaeaRechazado } from "../domain/caea/aviso-informe.js";
import {
  esperaTrasIntentos,
  finDelPlazo,
  isSameCaeaVoucher,
  juzgarInforme,
  porVencer,
  puntosSinMovimiento,
  quincenasTerminadas,
} from "../domain/caea/informe.js";
import type { FECAEDetRequest } from "../domain/issuance/index.js";
import { startPeriodic, type PeriodicPass } from "./periodic.js";
import type { HeldSeries, SeriesWriter } from "./series-writer.js";

/** An informing event is sent again only once its voucher has been settled this long. */
const SIN_EVENTO_AFTER_MS = 10_000;
const SIN_EVENTO_BATCH = 200;
/** the most pending vouchers one series informs in one pass */
const POR_PASADA = 2_000;
/** FECompConsultar calls made at once when several numbers are to be looked up */
const LOOKUPS_AT_ONCE = 8;

/** The CAEA vouchers, by environment, still uninformed within 48 h of their FchTopeInf. */
const porVencerGauge = new Map<string, number>();
gauge(
  "pasarela_caea_sin_informar_por_vencer",
  "Vouchers issued under a CAEA still not informed to the authority within 48 h of the CAEA's FchTopeInf (or past it)",
  ["environment"],
  function collect() {
    this.reset();
    for (const [environment, count] of porVencerGauge) this.set({ environment }, count);
  },
);
/** The series, by environment, whose informing is held: refused by the authority, or blocked. */
const detenidas = new Map<string, Set<string>>();
gauge(
  "pasarela_caea_informe_detenido",
  "Series of CAEA vouchers whose informing is held back: the authority refused the request (701, 780…) or a voucher rejected at informing blocks the numbers after it",
  ["environment"],
  function collect() {
    this.reset();
    for (const [environment, series] of detenidas) this.set({ environment }, series.size);
  },
);

const keyOf = (s: SeriesKey) => `${s.cuit}|${s.ptoVta}|${s.cbteTipo}`;
function holdSeries(s: SeriesKey, held: boolean) {
  const set = detenidas.get(s.environment) ?? new Set<string>();
  if (held) set.add(keyOf(s));
  else set.delete(keyOf(s));
  detenidas.set(s.environment, set);
}

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
 * Each pass also declares, for every fortnight that ended, the CAEA points of sale that issued
 * nothing under it (FECAEASinMovimientoInformar, after FECAEASinMovimientoConsultar so a lost
 * answer is not declared twice), and alerts (gauge, owner's e-mail once per fortnight) on
 * vouchers still uninformed 48 h before their CAEA's FchTopeInf.
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
  /** the fortnights and their deadlines are the authority's: by its clock, unless a test sets one */
  const authorityDate = (environment: string) =>
    new Date(deps.now?.() ?? authorityNow(environment));
  const log = deps.logger;
  const stopping = () => periodic.stopped;

  /** Publishes the informing's event of settled vouchers, the e-mail of rejected ones, marks them. */
  async function publish(settled: readonly StoredComprobante[]): Promise<void> {
    const published: string[] = [];
    for (const v of settled) {
      try {
        if (await publishOne(v)) published.push(v.id);
      } catch (error) {
        log.warn({ err: error, comprobanteId: v.id }, "CAEA informing event not published");
      }
    }
    await deps.informes.markEventoPublicado(published).catch((error: unknown) => {
      log.warn({ err: error }, "CAEA informing events not recorded as published");
    });
  }

  async function publishOne(v: StoredComprobante): Promise<boolean> {
    if (!v.caea || v.cae === null) return false;
    const common = {
      version: 1 as const,
      comprobanteId: v.id,
      accountId: v.accountId,
      environment: v.series.environment,
      representada: v.series.cuit,
      ptoVta: v.series.ptoVta,
      cbteTipo: v.series.cbteTipo,
      cbteNro: v.cbteNro,
      cbteFch: v.cbteFch,
      totales: v.totales,
      moneda: v.moneda,
      requestId: v.requestId,
      idempotencyKey: v.idempotencyKey,
      caea: v.cae,
      observaciones: [...v.observaciones],
    };
    const options = { accountId: v.accountId, requestId: v.requestId };
    if (v.caea.estado === "informado") {
      const informadoAt = (v.caea.informadoAt ?? new Date(now())).toISOString();
      await deps.bus.publish(
        wsfe.comprobanteCaeaInformado,
        {
          ...common,
          id: wsfe.comprobanteEventId(v.id, "caea_informado"),
          occurredAt: informadoAt,
          informadoAt,
        },
        options,
      );
      return true;
    }
    if (v.caea.estado !== "rechazado") return false;
    const id = wsfe.comprobanteEventId(v.id, "caea_rechazado");
    await deps.bus.publish(
      wsfe.comprobanteCaeaRechazado,
      { ...common, id, occurredAt: new Date(now()).toISOString(), errores: [...v.errores] },
      options,
    );
    const owner = await deps.bus.request(billing.accountOwnerGet, { accountId: v.accountId });
    if (owner.ok) {
      const message = avisoCaeaRechazado({
        destinatario: owner.value.name,
        cuenta: owner.value.accountName,
        environment: v.series.environment,
        representada: v.series.cuit,
        ptoVta: v.series.ptoVta,
        cbteTipo: v.series.cbteTipo,
        cbteNro: v.cbteNro,
        cbteFch: v.cbteFch,
        caea: v.cae,
        observaciones: v.observaciones,
        errores: v.errores,
      });
      await deps.bus.publish(mail.mensajeJob, {
        id: avisoJobId(id),
        to: owner.value.email,
        ...message,
        queuedAt: new Date(now()).toISOString(),
      });
    } else if (owner.error.code !== "USER_NOT_FOUND") {
      // the event is out; both go again on a later pass (the stream drops the event's copy)
      log.warn({ error: owner.error.message }, "CAEA rejection: owner not read");
      return false;
    }
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
        const rejected = await deps.informes.markRechazado(
          v.id,
          {
            observaciones: [],
            errores: [],
            eventos: [],
            failure: {
              reconciliation: "number holds another voucher",
              authority: {
                emisionTipo: found.value.emisionTipo ?? null,
                codAutorizacion: found.value.codAutorizacion,
                cbteFch: found.value.cbteFch,
                impTotal: found.value.impTotal,
              },
            },
          },
          held.fence,
        );
        if (rejected) {
          rechazados++;
          await publish([rejected]);
          log.warn(
            { comprobanteId: v.id, cbteNro: v.cbteNro, ultimoAutorizado: last },
            "CAEA voucher reconciled: the number holds another voucher",
          );
        }
      }
      const adopted = await deps.informes.markInformados(
        same.map((v) => ({ id: v.id, observaciones: [], eventos: [] })),
      );
      informados += adopted.length;
      await publish(adopted);
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
    await publish(informed);
    if (informed.length > 0) {
      log.info({ series, count: informed.length }, "CAEA vouchers informed");
      holdSeries(series, false);
    }
    let rechazados = 0;
    if (veredicto.rechazado) {
      const v = byNro.get(veredicto.rechazado.cbteNro)!;
      const rejected = await deps.informes.markRechazado(
        v.id,
        {
          observaciones: veredicto.rechazado.observaciones,
          errores: veredicto.rechazado.errores,
          eventos: outcome.eventos,
          failure: { reason: "rejected at informing" },
        },
        held.fence,
      );
      if (rejected) {
        rechazados++;
        await publish([rejected]);
        log.warn(
          {
            comprobanteId: v.id,
            cbteNro: v.cbteNro,
            codes: [...veredicto.rechazado.observaciones, ...veredicto.rechazado.errores].map(
              (e) => e.code,
            ),
          },
          "CAEA voucher rejected at informing",
        );
      }
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

  async function republish(): Promise<void> {
    const left = await deps.informes.sinEvento(SIN_EVENTO_AFTER_MS, SIN_EVENTO_BATCH);
    if (left.length > 0) await publish(left);
  }

  /** Declares the contingency points of sale that issued nothing under an ended fortnight. */
  async function declareSinMovimiento(): Promise<void> {
    const listed = await deps.bus.request(ticket.contingenciaList, {});
    if (!listed.ok) {
      log.warn({ error: listed.error.message }, "representadas in contingency not read");
      return;
    }
    for (const r of listed.value.representadas) {
      const at = authorityDate(r.environment);
      const owner = { environment: r.environment, cuit: r.cuit };
      const caller: WsfeCaller = { accountId: r.accountId, ...owner };
      for (const q of quincenasTerminadas(at)) {
        if (stopping()) return;
        const caea = await deps.caeas.find(owner, q);
        // no CAEA, nothing issued under it; past FchTopeInf, too late to declare
        if (!caea || at >= finDelPlazo(caea.fchTopeInf)) continue;
        const puntos = puntosSinMovimiento(
          r.puntosDeVenta,
          await deps.informes.conMovimiento(owner, q),
          await deps.informes.declarados(owner, q),
        );
        for (const ptoVta of puntos) {
          await declare(caller, { ...q, caea: caea.caea }, ptoVta);
        }
      }
    }
  }

  async function declare(
    caller: WsfeCaller,
    q: { periodo: number; orden: number; caea: string },
    ptoVta: number,
  ): Promise<void> {
    const where = { cuit: caller.cuit, ptoVta, periodo: q.periodo, orden: q.orden };
    const record = (
      resultado: string,
      fchProceso: string | null,
      errores: readonly { code: number; msg: string }[],
    ) =>
      deps.informes.recordSinMovimiento({
        environment: caller.environment,
        cuit: caller.cuit,
        periodo: q.periodo,
        orden: q.orden,
        ptoVta,
        resultado,
        fchProceso,
        errores,
      });
    // a declaration whose answer was lost is there already: recorded, not sent again
    const known = await deps.informe.sinMovimientoConsultar(caller, { ptoVta, caea: q.caea });
    if (!known.ok) {
      log.warn({ ...where, error: known.error.message }, "no-movement declaration not checked");
      return;
    }
    if (known.value === "declarado") {
      await record("A", null, []);
      log.info(where, "CAEA point of sale found declared without movement");
      return;
    }
    if (known.value === "con_comprobantes") {
      // vouchers were informed under it outside the gateway: there is nothing to declare
      await record("R", null, [
        { code: 10105, msg: "El punto de venta registra comprobantes informados." },
      ]);
      return;
    }
    const answer = await deps.informe.sinMovimientoInformar(caller, { ptoVta, caea: q.caea });
    if (!answer.ok) {
      log.warn({ ...where, error: answer.error.message }, "no-movement declaration not made yet");
      return;
    }
    await record(answer.value.resultado, answer.value.fchProceso || null, answer.value.errores);
    if (answer.value.resultado === "A")
      log.info(where, "CAEA point of sale declared without movement");
    else {
      log.warn(
        { ...where, codes: answer.value.errores.map((e) => e.code) },
        "no-movement declaration refused by the authority",
      );
    }
  }

  /** The gauge of vouchers near FchTopeInf, and the owner's e-mail once per fortnight. */
  async function alertDeadlines(): Promise<void> {
    const counts = new Map<string, number>();
    for (const f of await deps.informes.sinInformar()) {
      const at = authorityDate(f.environment);
      if (f.fchTopeInf === undefined || !porVencer(f.fchTopeInf, at)) continue;
      counts.set(f.environment, (counts.get(f.environment) ?? 0) + f.pendientes);
      if (!f.avisado && !stopping()) await alertOwner(f, f.fchTopeInf);
    }
    porVencerGauge.clear();
    for (const [environment, count] of counts) porVencerGauge.set(environment, count);
  }

  async function alertOwner(f: CaeaSinInformar, fchTopeInf: string): Promise<void> {
    const owner = await deps.bus.request(billing.accountOwnerGet, { accountId: f.accountId });
    if (owner.ok) {
      const message = avisoCaeaPorVencer({
        destinatario: owner.value.name,
        cuenta: owner.value.accountName,
        environment: f.environment,
        representada: f.cuit,
        periodo: f.periodo,
        orden: f.orden,
        fchTopeInf,
        pendientes: f.pendientes,
      });
      await deps.bus.publish(mail.mensajeJob, {
        id: avisoJobId(
          `caea.por_vencer.${f.accountId}.${f.environment}.${f.cuit}.${f.periodo}.${f.orden}`,
        ),
        to: owner.value.email,
        ...message,
        queuedAt: isoNow(),
      });
    } else if (owner.error.code !== "USER_NOT_FOUND") {
      log.warn({ error: owner.error.message }, "CAEA deadline alert: owner not read");
      return;
    }
    await deps.informes.markAvisado(f);
    log.warn(
      { cuit: f.cuit, periodo: f.periodo, orden: f.orden, pendientes: f.pendientes, fchTopeInf },
      "CAEA vouchers uninformed near FchTopeInf: alerted",
    );
  }
  const isoNow = () => new Date(now()).toISOString();

  async function pass(): Promise<void> {
    await informAll();
    if (stopping()) return;
    await republish();
    if (stopping()) return;
    await declareSinMovimiento();
    if (stopping()) return;
    await alertDeadlines();
  }

  const periodic: PeriodicPass = startPeriodic({
    pass,
    intervalMs: deps.intervalMs,
    logger: deps.logger,
    what: "CAEA informing pass",
  });
  return periodic;
}
