import { randomUUID } from "node:crypto";
import { trace } from "@opentelemetry/api";
import { wsfe } from "@pasarela/contracts";
import {
  appError,
  authorityRejected,
  authorityUnavailable,
  fail,
  ok,
  type AppError,
  type Result,
} from "@pasarela/errors";
import { histogram, type Logger } from "@pasarela/telemetry";
import type { VoucherAuthority } from "../adapters/voucher-authority.js";
import type { WsfeCaller } from "../adapters/wsfe.js";
import type { ComprobantesRepository, NewComprobante } from "../db/repositories/comprobantes.js";
import type { SeriesKey, SeriesRepository } from "../db/repositories/series.js";
import { settleBatch, type Numbered } from "./batch-outcome.js";
import type { VoucherEvents } from "./events.js";
import {
  KEY_LAPSED,
  type IssuanceJob,
  type IssuanceReply,
  type IssuanceResult,
  type Issuer,
  type Waiting,
} from "./issuance-job.js";
import type { Reconciler } from "./reconcile.js";
import type { HeldSeries, SeriesWriter } from "./series-writer.js";

/**
 * FECAESolicitar is sent only while a whole AUTHORITY_TIMEOUT_MS and this margin (to store the
 * answer and reply) still fit before the caller's deadline: otherwise 502 without sending,
 * numbering unchanged, because a voucher the caller stopped waiting for is one the caller may
 * issue again.
 */
export const SEND_MARGIN_MS = 2_000;

export interface BatchIssuerDeps {
  authority: Pick<VoucherAuthority, "ultimoAutorizado" | "solicitar" | "perRequest" | "requestIds">;
  comprobantes: Pick<
    ComprobantesRepository,
    | "unresolved"
    | "insertPending"
    | "liveKeys"
    | "markManyAuthorized"
    | "markRejected"
    | "markUnknown"
    | "markManyUnresolved"
    | "endSend"
  >;
  series: Pick<SeriesRepository, "flagReconciliation">;
  writer: SeriesWriter;
  reconcile: Reconciler;
  events: Pick<VoucherEvents, "publishOutcome" | "publishOutcomes">;
  authorityTimeoutMs: number;
  /**
   * How long after its statement a send may still reach the authority: the batch must start
   * sending within the lease period of that statement, and the call then lands within
   * AUTHORITY_TIMEOUT_MS; a margin covers the rest. A later holder of the series sends a
   * voucher again, rather than calling it never issued, while that time has not passed.
   * Undefined (tests): no limit on when a send starts, and none recorded.
   */
  inFlightMs?: number;
  logger: Logger;
  now?: () => number;
}

const keyOf = (k: SeriesKey) => `${k.environment}|${k.cuit}|${k.ptoVta}|${k.cbteTipo}`;

const busy = (series: SeriesKey, reason = "series busy") =>
  appError("SERVICE_UNAVAILABLE", { reason, ptoVta: series.ptoVta, cbteTipo: series.cbteTipo });

/** 11002, as the issuance's rejection with the hint rather than a query's 400. */
function numberingRefused(error: AppError): AppError {
  if (error.code !== "POINT_OF_SALE_NOT_ENABLED") return error;
  const { authorityCode, authorityMessage } = error.details ?? {};
  const code = typeof authorityCode === "number" ? authorityCode : 11002;
  const msg = typeof authorityMessage === "string" ? authorityMessage : error.message;
  return authorityRejected({ observaciones: [], errores: [{ code, msg }] });
}

export { judgeBatch } from "./batch-outcome.js";

const batchSizes = histogram(
  "pasarela_issuance_batch_size",
  "Vouchers sent in one FECAESolicitar (CantReg), by environment",
  ["environment"],
  [1, 2, 5, 10, 25, 50, 100, 250],
);

/**
 * Coalesced batches: the vouchers waiting on one series go together in one
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

  async function maxPerRequest(caller: WsfeCaller, cbteTipo: number): Promise<number> {
    const asked = await deps.authority.perRequest(caller, cbteTipo);
    if (!asked.ok) {
      deps.logger.warn({ error: asked.error.message }, "FECompTotXRequest failed; one per request");
      return 1;
    }
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

  /**
   * Numbers `members` from `from` and stores them `pending` in one statement, while the lease
   * is confirmed. A voucher whose Idempotency-Key a live voucher already holds (an earlier
   * attempt of the same call, its caller gone) is answered "unavailable" and left out: the
   * retry that follows settles the earlier one. Answers the numbered vouchers and when their
   * statement left, or undefined when every caller was answered.
   */
  async function storePending(
    series: SeriesKey,
    members: Waiting[],
    from: number,
    held: HeldSeries,
  ): Promise<{ numbered: Numbered[]; storedAt: number } | undefined> {
    const { ptoVta, cbteTipo } = series;
    for (let attempt = 0; members.length > 0; attempt++) {
      // an export voucher carries FEXAuthorize's request Id, its idempotency key at the
      // authority: taken now, stored with it, sent again unchanged
      let firstId: number | undefined;
      if (wsfe.isExportCbteTipo(cbteTipo)) {
        const ids = await deps.authority.requestIds(members[0]!.job.caller, members.length);
        if (!ids.ok) {
          for (const w of members) w.answer(fail(ids.error));
          return undefined;
        }
        firstId = ids.value;
      }
      const numbered: Numbered[] = members.map((w, i) => {
        const cbteNro = from + i;
        const built = w.job.build(cbteNro, firstId === undefined ? undefined : firstId + i);
        return {
          waiting: w,
          id: randomUUID(),
          cbteNro,
          detalle: built.sent,
          summary: built.summary,
        };
      });
      const rows: NewComprobante[] = numbered.map((n) => ({
        id: n.id,
        accountId: n.waiting.job.accountId,
        series,
        cbteNro: n.cbteNro,
        sent: n.detalle,
        summary: n.summary,
        request: n.waiting.job.request,
        emailTo: n.waiting.job.emailTo,
        idempotencyKey: n.waiting.job.idempotencyKey,
        requestId: n.waiting.job.requestId,
      }));
      const storedAt = performance.now();
      // the lease is confirmed while the batch is stored: both must hold before sending
      const [inserted, renewed] = await Promise.all([
        deps.comprobantes.insertPending(rows, deps.inFlightMs),
        held.renew(),
      ]);
      if (inserted === "key-live") {
        if (attempt > 0) {
          for (const w of members) w.answer(fail(busy(series)));
          return undefined;
        }
        const keys = members.flatMap((w) => w.job.idempotencyKey ?? []);
        const live = await deps.comprobantes.liveKeys(members[0]!.job.accountId, keys);
        for (const w of members.filter((x) => live.has(x.job.idempotencyKey ?? ""))) {
          w.answer(
            fail(
              appError("SERVICE_UNAVAILABLE", {
                reason: "an earlier attempt under this Idempotency-Key is still being settled",
                ptoVta,
                cbteTipo,
              }),
            ),
          );
        }
        members = members.filter((w) => !live.has(w.job.idempotencyKey ?? ""));
        continue;
      }
      if (inserted === "number-taken") {
        // the gateway holds a live voucher above what the authority says was authorized
        deps.logger.error({ ptoVta, cbteTipo, last: from - 1 }, "numbering out of step");
        const error = authorityUnavailable(
          `la AFIP informa ${from - 1} como último autorizado pero la pasarela ya tiene el ${from}`,
          { ptoVta, cbteTipo, cbteNro: from },
        );
        for (const w of members) w.answer(fail(error));
        return undefined;
      }
      if (!renewed) {
        await deps.comprobantes.markManyUnresolved(
          numbered.map((n) => n.id),
          "not_issued",
          { reason: "series lease lost before sending" },
          held.fence,
        );
        for (const w of members) w.answer(fail(busy(series)));
        return undefined;
      }
      return { numbered, storedAt };
    }
    return undefined;
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
      deps.authority.ultimoAutorizado(caller, { ptoVta, cbteTipo }),
      deps.comprobantes.unresolved(series),
    ]);
    if (!last.ok) return answerAll(batch, fail(numberingRefused(last.error)));
    // a series taken over from a writer that died is settled before it numbers again
    const settled = await deps.reconcile(caller, series, last.value, open, held);
    if (!settled.ok) return answerAll(batch, settled);

    // a call whose key a retry may be looking up stores nothing: that retry issues it
    const lapsed = batch.filter((w) => w.job.keyHeld?.() === false);
    answerAll(lapsed, fail(busy(series, KEY_LAPSED)));
    const at = now();
    const fits = batch.filter(
      (w) => !lapsed.includes(w) && w.job.deadline - at >= deps.authorityTimeoutMs + SEND_MARGIN_MS,
    );
    answerAll(
      batch.filter((w) => !fits.includes(w) && !lapsed.includes(w)),
      fail(
        authorityUnavailable(
          "la AFIP tardó demasiado en las consultas previas; el comprobante no se envió",
          { ptoVta, cbteTipo },
        ),
      ),
    );
    if (fits.length === 0) return;

    const stored = await storePending(series, fits, settled.value + 1, held);
    if (!stored) return;
    const { numbered, storedAt } = stored;
    const members = numbered.map((n) => n.waiting);
    batchSizes.observe({ environment: series.environment }, numbered.length);
    trace.getActiveSpan()?.setAttribute("pasarela.batch_size", numbered.length);
    const mayStart = held.fence?.mayStart;
    const outcome = await deps.authority.solicitar(
      callerFor(members),
      { ptoVta, cbteTipo, detalles: numbered.map((n) => n.detalle) },
      {
        // fencing: only while the lease holds, and soon enough after the statement that
        // dated the send for `inFlightMs` to cover its arrival
        mayStart: () =>
          (mayStart?.() ?? true) &&
          (deps.inFlightMs === undefined || performance.now() - storedAt < deps.inFlightMs),
      },
    );
    if (outcome.kind === "unknown") {
      deps.logger.warn(
        {
          ptoVta,
          cbteTipo,
          from: settled.value + 1,
          count: numbered.length,
          error: outcome.error.message,
        },
        "issuance outcome unknown",
      );
    }
    const { again, toPublish } = await settleBatch(deps, series, numbered, outcome, held.fence);
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

  // one queue holds both kinds of voucher; each caller gets its own kind of reply back
  return <R extends IssuanceReply>(job: IssuanceJob<R>) =>
    new Promise<Result<R>>((resolve, reject) => {
      const name = keyOf(job.series);
      let queue = waiting.get(name);
      if (!queue) {
        queue = [];
        waiting.set(name, queue);
      }
      queue.push({
        job,
        answer: resolve as (result: IssuanceResult) => void,
        crash: reject,
      });
      if (!draining.has(name)) void drain(job.series, name);
    });
}
