import { randomUUID } from "node:crypto";
import { trace } from "@opentelemetry/api";
import type { Environment, wsfe } from "@pasarela/contracts";
import {
  appError,
  authorityRejected,
  authorityUnavailable,
  fail,
  issuanceOutcomeUnknown,
  ok,
  type AppError,
  type Result,
} from "@pasarela/errors";
import { histogram, type Logger } from "@pasarela/telemetry";
import type { WsfeAdapter, WsfeCaller } from "../adapters/wsfe.js";
import type {
  ComprobantesRepository,
  NewComprobante,
  StoredComprobante,
} from "../db/repositories/comprobantes.js";
import type { SeriesKey, SeriesRepository } from "../db/repositories/series.js";
import type { CaeDetalleRespuesta } from "../domain/cae-answer.js";
import {
  authorizedReply,
  feCaeDetRequest,
  isFce,
  type PreparedVoucher,
} from "../domain/issuance/index.js";
import type { VoucherEvents } from "./events.js";
import type { Reconciler } from "./reconcile.js";
import type { HeldSeries, SeriesWriter } from "./series-writer.js";

/**
 * FECAESolicitar is sent only while a whole AUTHORITY_TIMEOUT_MS and this margin (to store the
 * answer and reply) still fit before the caller's deadline: otherwise 502 without sending,
 * numbering unchanged, because a voucher the caller stopped waiting for is one the caller may
 * issue again.
 */
export const SEND_MARGIN_MS = 2_000;

/** One voucher ready to be numbered and sent, and whom to answer. */
export interface IssuanceJob {
  readonly accountId: string;
  readonly caller: WsfeCaller;
  readonly series: SeriesKey;
  readonly voucher: PreparedVoucher;
  /** MonCotiz as sent: the voucher's own rate, or the authority's of the day */
  readonly cotizacion: string;
  readonly idempotencyKey: string | null;
  readonly requestId: string;
  /** the API call's deadline (epoch ms) */
  readonly deadline: number;
  readonly logger: Logger;
}

export type IssuanceResult = Result<wsfe.FacturaIssueReply>;

/** Issues one voucher, coalesced with the others waiting on its series. */
export type Issuer = (job: IssuanceJob) => Promise<IssuanceResult>;

export interface BatchIssuerDeps {
  wsfe: Pick<WsfeAdapter, "ultimoAutorizado" | "solicitar" | "totXRequest">;
  comprobantes: Pick<
    ComprobantesRepository,
    | "unresolved"
    | "insertPending"
    | "markManyAuthorized"
    | "markRejected"
    | "markUnknown"
    | "markManyUnresolved"
  >;
  series: Pick<SeriesRepository, "flagReconciliation">;
  writer: SeriesWriter;
  reconcile: Reconciler;
  events: VoucherEvents;
  authorityTimeoutMs: number;
  logger: Logger;
  now?: () => number;
}

interface Waiting {
  readonly job: IssuanceJob;
  readonly answer: (result: IssuanceResult) => void;
  /** an unexpected throw: the caller's handler turns it into INTERNAL */
  readonly crash: (error: unknown) => void;
}

/** A waiting voucher with the number, row id and detail it is sent with. */
interface Numbered {
  readonly waiting: Waiting;
  readonly id: string;
  readonly cbteNro: number;
  readonly detalle: ReturnType<typeof feCaeDetRequest>;
}

const keyOf = (k: SeriesKey) => `${k.environment}|${k.cuit}|${k.ptoVta}|${k.cbteTipo}`;

const busy = (series: SeriesKey) =>
  appError("SERVICE_UNAVAILABLE", {
    reason: "series busy",
    ptoVta: series.ptoVta,
    cbteTipo: series.cbteTipo,
  });

/** Spec §7.3 11002, as the issuance's rejection with the hint rather than a query's 400. */
function numberingRefused(error: AppError): AppError {
  if (error.code !== "POINT_OF_SALE_NOT_ENABLED") return error;
  const { authorityCode, authorityMessage } = error.details ?? {};
  const code = typeof authorityCode === "number" ? authorityCode : 11002;
  const msg = typeof authorityMessage === "string" ? authorityMessage : error.message;
  return authorityRejected({ observaciones: [], errores: [{ code, msg }] });
}

/** What each detail of a judged batch came to, in the order they were numbered. */
type Verdict =
  | { kind: "authorized"; answer: CaeDetalleRespuesta }
  | { kind: "rejected"; answer: CaeDetalleRespuesta }
  /** rejected only because an earlier detail was: the numbering moved, it goes again */
  | { kind: "resend" }
  | { kind: "missing" };

/**
 * authority-ws.md §8.5: each detail has its own Resultado. After the first one rejected the
 * authority's numbering no longer matches the following details (10016), so a later R says
 * nothing about that voucher: it is sent again in the next batch, never reported.
 */
export function judgeBatch(
  numbers: readonly number[],
  detalles: readonly CaeDetalleRespuesta[],
): Verdict[] {
  let blocked = false;
  return numbers.map((cbteNro): Verdict => {
    const answer = detalles.find((d) => d.cbteDesde === cbteNro);
    if (!answer) return { kind: "missing" };
    if (answer.resultado === "A") return { kind: "authorized", answer };
    if (blocked) return { kind: "resend" };
    blocked = true;
    return { kind: "rejected", answer };
  });
}

const batchSizes = histogram(
  "pasarela_issuance_batch_size",
  "Vouchers sent in one FECAESolicitar (CantReg), by environment",
  ["environment"],
  [1, 2, 5, 10, 25, 50, 100, 250],
);

/**
 * Coalesced batches (ARCHITECTURE §5.3): the vouchers waiting on one series go together in one
 * FECAESolicitar, numbered consecutively, up to FECompTotXRequest (asked once per environment,
 * FCE one at a time), as the series' only writer. Every voucher is stored `pending` with its
 * number before the call (one statement for the batch), and each caller gets its own answer.
 * A batch takes the vouchers of one account (the access ticket is the account's); the others
 * wait for the next one.
 */
export function makeBatchIssuer(deps: BatchIssuerDeps): Issuer {
  const now = deps.now ?? Date.now;
  const waiting = new Map<string, Waiting[]>();
  const draining = new Set<string>();
  const perRequest = new Map<Environment, number>();

  async function maxPerRequest(caller: WsfeCaller, cbteTipo: number): Promise<number> {
    if (isFce(cbteTipo)) return 1;
    const known = perRequest.get(caller.environment);
    if (known !== undefined) return known;
    const asked = await deps.wsfe.totXRequest(caller);
    if (!asked.ok) {
      deps.logger.warn({ error: asked.error.message }, "FECompTotXRequest failed; one per request");
      return 1;
    }
    perRequest.set(caller.environment, asked.value);
    return asked.value;
  }

  /** Takes from the queue the next batch: one account's vouchers, in arrival order. */
  function take(queue: Waiting[], max: number): Waiting[] {
    const account = queue[0]?.job.accountId;
    const batch: Waiting[] = [];
    for (let i = 0; i < queue.length && batch.length < max;) {
      if (queue[i]!.job.accountId === account) batch.push(...queue.splice(i, 1));
      else i++;
    }
    return batch;
  }

  async function send(
    series: SeriesKey,
    queue: Waiting[],
    batch: Waiting[],
    held: HeldSeries,
  ): Promise<void> {
    const { ptoVta, cbteTipo } = series;
    const first = batch[0]!.job;
    const callerFor = (members: readonly Waiting[]): WsfeCaller => ({
      ...first.caller,
      deadline: Math.min(...members.map((w) => w.job.deadline)),
    });
    const answerAll = (members: readonly Waiting[], result: IssuanceResult) => {
      for (const w of members) w.answer(result);
    };

    const caller = callerFor(batch);
    const [last, open] = await Promise.all([
      deps.wsfe.ultimoAutorizado(caller, { ptoVta, cbteTipo }),
      deps.comprobantes.unresolved(series),
    ]);
    if (!last.ok) return answerAll(batch, fail(numberingRefused(last.error)));
    const settled = await deps.reconcile(caller, series, last.value, open, held);
    if (!settled.ok) return answerAll(batch, settled);

    const at = now();
    const fits = batch.filter(
      (w) => w.job.deadline - at >= deps.authorityTimeoutMs + SEND_MARGIN_MS,
    );
    answerAll(
      batch.filter((w) => !fits.includes(w)),
      fail(
        authorityUnavailable(
          "la AFIP tardó demasiado en las consultas previas; el comprobante no se envió",
          { ptoVta, cbteTipo },
        ),
      ),
    );
    if (fits.length === 0) return;

    const numbered: Numbered[] = fits.map((w, i) => {
      const cbteNro = last.value + 1 + i;
      return {
        waiting: w,
        id: randomUUID(),
        cbteNro,
        detalle: feCaeDetRequest(w.job.voucher, { cbteNro, cotizacion: w.job.cotizacion }),
      };
    });
    const rows: NewComprobante[] = numbered.map((n) => ({
      id: n.id,
      accountId: n.waiting.job.accountId,
      series,
      cbteNro: n.cbteNro,
      sent: n.detalle,
      request: n.waiting.job.voucher,
      emailTo: n.waiting.job.voucher.email ?? null,
      idempotencyKey: n.waiting.job.idempotencyKey,
      requestId: n.waiting.job.requestId,
    }));
    const ids = numbered.map((n) => n.id);
    // the lease is renewed while the batch is stored: both must hold before sending
    const [inserted, renewed] = await Promise.all([
      deps.comprobantes.insertPending(rows),
      held.renew(),
    ]);
    if (inserted === "number-taken") {
      // the gateway holds a live voucher above what the authority says was authorized
      deps.logger.error({ ptoVta, cbteTipo, last: last.value }, "numbering out of step");
      return answerAll(
        fits,
        fail(
          authorityUnavailable(
            `la AFIP informa ${last.value} como último autorizado pero la pasarela ya tiene el ${last.value + 1}`,
            { ptoVta, cbteTipo, cbteNro: last.value + 1 },
          ),
        ),
      );
    }
    if (!renewed) {
      await deps.comprobantes.markManyUnresolved(ids, "not_issued", {
        reason: "series lease lost before sending",
      });
      return answerAll(fits, fail(busy(series)));
    }

    batchSizes.observe({ environment: series.environment }, numbered.length);
    trace.getActiveSpan()?.setAttribute("pasarela.batch_size", numbered.length);
    const outcome = await deps.wsfe.solicitar(callerFor(fits), {
      ptoVta,
      cbteTipo,
      detalles: numbered.map((n) => n.detalle),
    });
    const ref = (n: Numbered) => ({ ptoVta, cbteTipo, cbteNro: n.cbteNro });
    if (outcome.kind === "refused") {
      await deps.comprobantes.markManyUnresolved(ids, "not_issued", outcome.error);
      return answerAll(fits, fail(outcome.error));
    }
    if (outcome.kind === "unknown") {
      await deps.comprobantes.markManyUnresolved(ids, "unknown", outcome.error);
      await deps.series.flagReconciliation(series, true);
      deps.logger.warn(
        { ptoVta, cbteTipo, from: last.value + 1, count: ids.length, error: outcome.error.message },
        "issuance outcome unknown",
      );
      for (const n of numbered)
        n.waiting.answer(fail(issuanceOutcomeUnknown(ref(n), outcome.error)));
      return;
    }

    const verdicts = judgeBatch(
      numbered.map((n) => n.cbteNro),
      outcome.detalles,
    );
    // the authorized ones in one statement (one commit for the whole batch), each caller
    // answered once its voucher is stored; the events follow, off the series' path
    const granted = numbered.flatMap((n, i) => {
      const verdict = verdicts[i]!;
      return verdict.kind === "authorized" ? [{ n, answer: verdict.answer }] : [];
    });
    const authorized = await deps.comprobantes.markManyAuthorized(
      granted.map(({ n, answer }) => ({
        id: n.id,
        cae: answer.cae,
        caeVencimiento: answer.caeFchVto,
        observaciones: answer.observaciones,
        eventos: outcome.eventos,
      })),
    );
    const stored = new Set(authorized.map((v) => v.id));
    for (const { n, answer } of granted) {
      const { job } = n.waiting;
      if (!stored.has(n.id)) {
        job.logger.error({ ...ref(n), id: n.id }, "authorized voucher was already settled");
      }
      n.waiting.answer(
        ok(
          authorizedReply(job.voucher, {
            cuit: series.cuit,
            ptoVta,
            cbteNro: n.cbteNro,
            cotizacion: job.cotizacion,
            cae: answer.cae,
            caeVencimiento: answer.caeFchVto,
            observaciones: answer.observaciones,
          }),
        ),
      );
    }

    const toPublish: StoredComprobante[] = [...authorized];
    const resend: Waiting[] = [];
    const laterDetails = (i: number) => verdicts.slice(i + 1).some((v) => v.kind === "resend");
    await Promise.all(
      numbered.map(async (n, i) => {
        const verdict = verdicts[i]!;
        switch (verdict.kind) {
          case "authorized":
            return;
          case "rejected": {
            // a 10016 the details after this one caused is theirs, not this voucher's
            const own = verdict.answer.observaciones.length > 0 && laterDetails(i);
            const rejection = {
              observaciones: verdict.answer.observaciones,
              errores: own ? outcome.errores.filter((e) => e.code !== 10016) : outcome.errores,
              eventos: outcome.eventos,
            };
            const rejected = await deps.comprobantes.markRejected(n.id, rejection);
            if (rejected) toPublish.push(rejected);
            const error = authorityRejected(rejection);
            n.waiting.answer(fail({ ...error, details: { ...error.details, ...ref(n) } }));
            return;
          }
          case "resend":
            resend.push(n.waiting);
            return;
          case "missing": {
            const cause = authorityUnavailable(
              `la respuesta de FECAESolicitar no trae el comprobante ${n.cbteNro}`,
            );
            await deps.comprobantes.markUnknown(n.id, cause);
            await deps.series.flagReconciliation(series, true);
            n.waiting.answer(fail(issuanceOutcomeUnknown(ref(n), cause)));
            return;
          }
        }
      }),
    );
    // the numbers of the re-sent ones are given back; they go first in the next batch, in order
    const again = fits.filter((w) => resend.includes(w));
    await deps.comprobantes.markManyUnresolved(
      numbered.filter((n) => again.includes(n.waiting)).map((n) => n.id),
      "not_issued",
      { reason: "re-sent: an earlier voucher of its batch was rejected" },
    );
    queue.unshift(...again);
    // an event that does not get out is published again by the sweep
    void deps.events.publishOutcomes(toPublish);
  }

  /** Runs batches on the series while vouchers wait on it. */
  async function drain(series: SeriesKey, name: string): Promise<void> {
    draining.add(name);
    try {
      for (;;) {
        const queue = waiting.get(name);
        if (!queue || queue.length === 0) {
          waiting.delete(name);
          return;
        }
        const latest = Math.max(...queue.map((w) => w.job.deadline));
        const ran = await deps.writer.run(series, latest, async (held) => {
          // those whose call ended while the series was busy are answered, nothing sent
          const at = now();
          for (const w of queue.filter((x) => x.job.deadline <= at)) {
            queue.splice(queue.indexOf(w), 1);
            w.answer(fail(busy(series)));
          }
          if (queue.length === 0) return ok(undefined);
          const batch = take(queue, await maxPerRequest(queue[0]!.job.caller, series.cbteTipo));
          try {
            await send(series, queue, batch, held);
          } catch (error) {
            // an unexpected throw answers this batch as the handler's would; the rest go on
            for (const w of batch) w.crash(error);
            throw error;
          }
          return ok(undefined);
        });
        if (!ran.ok) {
          // the series stayed busy up to the latest deadline: nobody waiting can be served
          for (const w of queue.splice(0)) w.answer(ran);
        }
      }
    } catch (error) {
      deps.logger.error({ err: error, series: name }, "issuance batch failed");
      for (const w of waiting.get(name)?.splice(0) ?? []) w.answer(fail(busy(series)));
    } finally {
      draining.delete(name);
      if ((waiting.get(name)?.length ?? 0) > 0) void drain(series, name);
    }
  }

  return (job) =>
    new Promise<IssuanceResult>((resolve, reject) => {
      const name = keyOf(job.series);
      let queue = waiting.get(name);
      if (!queue) {
        queue = [];
        waiting.set(name, queue);
      }
      queue.push({ job, answer: resolve, crash: reject });
      if (!draining.has(name)) void drain(job.series, name);
    });
}
