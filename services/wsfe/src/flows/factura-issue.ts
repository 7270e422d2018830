/**
 * The issuance's lifecycle, owned by wsfe, in one closure (makeIssuanceLifecycle): billing's
 * admission, the key's lease while the attempt runs, the voucher, its outcome handed over, the
 * lookup of an attempt of unknown outcome, the replay. Longer than 400 lines on purpose: every
 * step reads and ends the same attempt, and the order of those steps is what makes an
 * Idempotency-Key issue exactly once; split, that order would be spread over files.
 */
import type { AccountContext, HandlerContext } from "@pasarela/bus";
import type { ReplyOf } from "@pasarela/contracts";
import { billing, DEADLINE_SLACK_MS, pdf, wsfe } from "@pasarela/contracts";
import {
  appError,
  authorityRejected,
  fail,
  isErrorCode,
  kindOf,
  ok,
  readOnlyKey,
  type AppError,
  type Result,
} from "@pasarela/errors";
import type { StoredComprobante } from "../db/repositories/comprobantes.js";
import type { OutcomeEvent } from "./events.js";
import type { IssuanceReply } from "./issuance-job.js";
import type { VoucherIssueContext } from "./voucher-issue.js";

export type {
  AnswerSchema,
  FacturaFlowDeps,
  IssuanceAnswer,
  IssuanceCall,
  IssuanceLifecycle,
  QueuedIssuance,
  VoucherOf,
} from "./issuance-types.js";
import type {
  AnswerSchema,
  FacturaFlowDeps,
  IssuanceAnswer,
  IssuanceCall,
  IssuanceLifecycle,
} from "./issuance-types.js";

/** One issuance call, as the flow carries it from step to step. */
interface Attempt<Req extends IssuanceCall> {
  request: Req;
  /** when the call reached the flow (epoch ms) */
  since: number;
  ctx: VoucherIssueContext;
  headers: { accountId: string; requestId: string; deadline: number };
}

/**
 * An admitted attempt's hold on its Idempotency-Key: `held` is true while the key is surely
 * still bound to it (its lease runs for at least another third), and false for good once
 * billing said it is not.
 */
interface KeyHold {
  held: () => boolean;
  stop: () => void;
}

const UNBOUND: KeyHold = { held: () => true, stop: () => {} };

/** How long an outcome that reached neither JetStream nor billing is tried again (settle). */
const SETTLE_RETRY_MS = 10_000;

/** Errors that leave the voucher's fate open (the authority or a service did not answer). */
const OPEN_KINDS = new Set(["internal", "upstream", "unavailable"]);

/**
 * How an error answer ends an admitted issuance, for billing: a rejection of the voucher is
 * final (replayed), a failure that may have reached the authority leaves it unknown, anything
 * else refused it before the authority (the key is free again).
 */
function outcomeOfError(error: AppError): billing.FacturaOutcome {
  if (!isErrorCode(error.code)) return "unknown";
  const kind = kindOf(error.code);
  if (kind === "rejected") return "final";
  return OPEN_KINDS.has(kind) ? "unknown" : "refused";
}

/** An error as an outcome event carries it. */
const answered = ({ code, message, details }: AppError) => ({
  code,
  message,
  ...(details === undefined ? {} : { details }),
});

/**
 * The issuance's lifecycle, owned by wsfe: billing admits it (the key, the rejection cap, the
 * production quota) before anything reaches the authority; a replay answers the first
 * attempt's answer; an attempt of unknown outcome is resolved before issuing again; an
 * admitted voucher is issued and its PDF link made. Every admitted attempt ends in one outcome
 * event (its voucher's `autorizado` or `rechazado` carrying the answer, or the attempt's
 * `terminada`), published on JetStream and handed to billing at once, which completes the key's
 * record, the quota and the rejection window from it alone.
 */
export function makeFacturaFlow<
  Req extends IssuanceCall = wsfe.FacturaIssueCall,
  Http extends wsfe.IssuedHttpReply = wsfe.FacturaHttpReply,
>(
  deps: FacturaFlowDeps<Req, Http>,
): (request: Req, ctx: AccountContext) => Promise<Result<IssuanceAnswer<Http>>> {
  return makeIssuanceLifecycle(deps).call;
}

/** The lifecycle `makeFacturaFlow` answers calls with, and the queue's ways into it. */
export function makeIssuanceLifecycle<
  Req extends IssuanceCall = wsfe.FacturaIssueCall,
  Http extends wsfe.IssuedHttpReply = wsfe.FacturaHttpReply,
>(deps: FacturaFlowDeps<Req, Http>): IssuanceLifecycle<Req, Http> {
  type Answer = Result<IssuanceAnswer<Http>>;
  const answerSchema = (deps.answerSchema ?? wsfe.facturaHttpReplySchema) as AnswerSchema<Http>;

  /** A stored or given answer as this call's answer: a voucher, or the error it ended with. */
  function resultOf(answer: billing.FacturaAnswer, replayed: boolean): Answer {
    if (answer.kind === "authorized") {
      const factura = answerSchema.safeParse(answer.factura);
      return factura.success ? ok({ factura: factura.data, replayed }) : fail(appError("INTERNAL"));
    }
    const { code, message, details } = answer.error;
    if (!isErrorCode(code)) return fail(appError("INTERNAL"));
    return fail({ code, message, ...(details === undefined ? {} : { details }) });
  }

  const now = deps.now ?? Date.now;
  const budgetMs = (deps.budgetMs ?? wsfe.facturaIssue.timeoutMs ?? 0) - DEADLINE_SLACK_MS;

  /** An attempt that ended without a voucher of its own in a final state. */
  function ended(
    a: Attempt<Req>,
    outcome: billing.FacturaOutcome,
    ref: string,
    error?: AppError,
  ): OutcomeEvent {
    const key = a.request.idempotencyKey;
    return {
      tipo: "terminada",
      event: {
        id: wsfe.emisionEventId(ref, outcome, a.headers.requestId),
        version: 1,
        accountId: a.headers.accountId,
        environment: a.request.environment,
        requestId: ref,
        idempotencyKey: key ?? null,
        outcome,
        ...(outcome === "final" && error ? { error: answered(error) } : {}),
        occurredAt: new Date(now()).toISOString(),
      },
    };
  }

  /**
   * Publishes the outcome event and hands it to billing at once, so a repeat right after this
   * answer is replayed; answers what the key replays from now on (the first answer stored for
   * it), or `own` when nothing is stored. Awaited: the record is complete before the caller
   * hears. Whichever of the two gets through is enough; billing applies the event once. Once
   * billing has it the publication is not waited for: a stream electing a new leader (a NATS
   * server lost) holds a publication for seconds, and a voucher's event that does not get out
   * is published again by the sweep. When neither gets through (NATS moving to another
   * server), the hand-over is tried again within the call's time: an attempt's end left untold
   * keeps its key answering 409 for the whole lease.
   */
  async function settle(
    a: Attempt<Req>,
    event: OutcomeEvent,
    own?: billing.FacturaAnswer,
  ): Promise<billing.FacturaAnswer | undefined> {
    const handOver = () => deps.bus.request(billing.facturaSettle, event, a.headers);
    const publishing = deps.events.publish(event);
    let settled = await handOver();
    let published = settled.ok || (await publishing);
    const until = Math.min(a.headers.deadline - DEADLINE_SLACK_MS, now() + SETTLE_RETRY_MS);
    for (let wait = 250; !published && !settled.ok && now() + wait < until; wait *= 2) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      [published, settled] = await Promise.all([deps.events.publish(event), handOver()]);
    }
    if (!settled.ok) {
      a.ctx.logger.warn({ err: settled.error }, "outcome event not handed to billing");
      return own;
    }
    return settled.value.answer ?? own;
  }

  /** An authorized voucher's answer, with its shareable PDF link when one can be made. */
  async function authorized(
    a: Attempt<Req>,
    reply: IssuanceReply,
    stored: StoredComprobante | undefined,
    attempt?: string,
  ): Promise<Answer> {
    const link = await deps.bus.request(
      pdf.linkCreate,
      {
        environment: a.request.environment,
        representada: a.request.representada,
        ptoVta: reply.ptoVta,
        cbteTipo: reply.cbteTipo,
        cbteNro: reply.cbteNro,
      },
      a.headers,
    );
    if (!link.ok) a.ctx.logger.warn({ err: link.error }, "issuance answered without pdfUrl");
    const factura = {
      ...wsfe.issuedHttpReply(reply),
      ...(link.ok ? { pdfUrl: link.value.url } : {}),
    } as Http;
    const own = { kind: "authorized" as const, factura: factura as Record<string, unknown> };
    // a voucher whose row this call did not settle is looked up by the next call under the key
    const event =
      (stored && deps.events.outcomeOf(stored, own)) ??
      ended(a, "unknown", attempt ?? a.headers.requestId);
    const answer = await settle(a, event, own);
    return answer === undefined ? ok({ factura, replayed: false }) : resultOf(answer, false);
  }

  /** An error answer, as the outcome it makes of the attempt. */
  async function refused(
    a: Attempt<Req>,
    error: AppError,
    stored: StoredComprobante | undefined,
    attempt?: string,
  ): Promise<Answer> {
    const own = { kind: "error" as const, error: answered(error) };
    const event =
      (stored?.state === "rejected" && deps.events.outcomeOf(stored, own)) ||
      ended(a, outcomeOfError(error), attempt ?? a.headers.requestId, error);
    const answer = await settle(a, event, own);
    return answer === undefined ? fail(error) : resultOf(answer, false);
  }

  /**
   * Keeps the key bound to this attempt while it runs: billing is asked to extend the lease
   * every third of it, so that a process that dies mid-attempt leaves its key to be looked up
   * by a retry after one lease. The lease is reckoned from before the request that set it, on
   * this process's clock; the attempt stores nothing to send once less than a third of it may
   * be left (the retry that follows a lapse finds either the stored voucher or none at all).
   */
  function holdKey(a: Attempt<Req>, admission: { askedAt: number; leaseMs?: number }): KeyHold {
    const key = a.request.idempotencyKey;
    const { leaseMs } = admission;
    if (key === undefined || leaseMs === undefined) return UNBOUND;
    const every = leaseMs / 3;
    let until = admission.askedAt + leaseMs;
    let lost = false;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const renew = async () => {
      const askedAt = now();
      const hold = await deps.bus.request(billing.facturaHold, { idempotencyKey: key }, a.headers);
      if (hold.ok && hold.value.held) until = askedAt + leaseMs;
      else if (hold.ok) lost = true;
      else a.ctx.logger.warn({ err: hold.error }, "the Idempotency-Key's lease not extended");
      if (!stopped && !lost) timer = setTimeout(() => void renew(), every).unref();
    };
    timer = setTimeout(() => void renew(), every).unref();
    return {
      held: () => !lost && now() < until - every,
      stop: () => {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  async function issue(
    a: Attempt<Req>,
    admission?: { askedAt: number; leaseMs?: number },
  ): Promise<Answer> {
    const held: { stored?: StoredComprobante } = {};
    const hold = admission ? holdKey(a, admission) : UNBOUND;
    let result: Result<IssuanceReply>;
    try {
      const { fingerprint: _fingerprint, keyScope: _scope, ...voucher } = a.request;
      result = await deps.issueVoucher(voucher, {
        ...a.ctx,
        keyHeld: hold.held,
        settled: (stored) => {
          held.stored = stored;
        },
      });
    } catch (error) {
      hold.stop();
      // a defect of ours after admission: the voucher may have been sent
      await settle(a, ended(a, "unknown", a.headers.requestId));
      throw error;
    }
    hold.stop();
    return result.ok
      ? authorized(a, result.value, held.stored)
      : refused(a, result.error, held.stored);
  }

  /** What became of the key's voucher, settled with the authority first when it was open. */
  function lookUp(a: Attempt<Req>, key: string) {
    return deps.facturaGet({ idempotencyKey: key }, {
      ...a.ctx,
      subject: wsfe.facturaGet.subject,
    } satisfies HandlerContext);
  }

  /**
   * The first attempt under this key ended without a known outcome (a 502, a timeout, a
   * crash): its voucher is settled with the authority and answered as what it became.
   * Authorized or rejected → that answer, stored for replays; never issued → the key is freed
   * and the voucher issued now.
   */
  async function resolve(a: Attempt<Req>, attempt: string, key: string): Promise<Answer> {
    const found = await lookUp(a, key);
    if (!found.ok) return fail(found.error);
    if (found.value.state === "not_issued") {
      await settle(a, ended(a, "refused", attempt));
      return admitAndIssue(a, false);
    }
    return answerSettled(a, found.value, key, attempt);
  }

  /**
   * The answer of the key's voucher that reached a final state, settled as the attempt that
   * sent it (`attempt`, or the stored voucher's own request when the caller does not know it).
   */
  async function answerSettled(
    a: Attempt<Req>,
    found: Exclude<ReplyOf<typeof wsfe.facturaGet>, { state: "not_issued" }>,
    key: string,
    attempt?: string,
  ): Promise<Answer> {
    const stored = (await deps.vouchersOfKey(a.headers.accountId, key)).find(
      (v) => (attempt === undefined || v.requestId === attempt) && v.state === found.state,
    );
    const ref = attempt ?? stored?.requestId;
    if (found.state === "authorized") return authorized(a, found.reply, stored, ref);
    const { ptoVta, cbteTipo, cbteNro } = found;
    const error = authorityRejected(found);
    return refused(
      a,
      { ...error, details: { ...error.details, ptoVta, cbteTipo, cbteNro } },
      stored,
      ref,
    );
  }

  /**
   * Billing's admission of the call. A repeat of a key whose attempt is still running waits
   * for it, asking again with growing pauses (up to 1 s) for up to half of its own time, so
   * it is answered what that attempt ends in (a replay, or its lookup once its lease lapsed)
   * rather than 409; the 409 stands when the attempt outlasts that.
   */
  async function admit(a: Attempt<Req>) {
    const { idempotencyKey: key, fingerprint } = a.request;
    const waitUntil = a.since + (a.headers.deadline - a.since) / 2;
    for (let pause = 100; ; pause = Math.min(pause * 2, 1_000)) {
      const askedAt = now();
      const admission = await deps.bus.request(
        billing.facturaAdmit,
        {
          environment: a.request.environment,
          ...(key === undefined ? {} : { idempotencyKey: key, fingerprint: fingerprint ?? "" }),
        },
        a.headers,
      );
      const running = !admission.ok && admission.error.code === "IDEMPOTENCY_IN_PROGRESS";
      if (!running || now() + pause >= waitUntil) return { admission, askedAt };
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  async function admitAndIssue(a: Attempt<Req>, mayResolve: boolean): Promise<Answer> {
    const key = a.request.idempotencyKey;
    const { admission, askedAt } = await admit(a);
    if (!admission.ok) {
      // billing may have admitted (bound the key, reserved quota) after this call gave up
      // waiting: nothing was issued, so that admission is given back rather than left to
      // answer 409 and hold the quota until it expires
      if (admission.error.code === "SERVICE_UNAVAILABLE") {
        await settle(a, ended(a, "refused", a.headers.requestId));
      }
      return admission;
    }
    switch (admission.value.decision) {
      case "replay":
        return resultOf(admission.value.answer, true);
      case "resolve":
        if (!mayResolve || key === undefined) return fail(appError("IDEMPOTENCY_IN_PROGRESS"));
        return resolve(a, admission.value.requestId, key);
      case "proceed":
        return issue(a, { askedAt, leaseMs: admission.value.leaseMs });
    }
  }

  const pollMs = deps.queuedPollMs ?? 500;

  /**
   * A call under the key of an asynchronous issuance is that issuance: answered as it ended,
   * or, while it is pending, once it ends within the call's time (409 after that).
   */
  async function queued(a: Attempt<Req>): Promise<Answer | undefined> {
    const { idempotencyKey: key, fingerprint } = a.request;
    if (key === undefined || deps.queuedOfKey === undefined) return undefined;
    let found = await deps.queuedOfKey(a.headers.accountId, key);
    if (found === undefined) return undefined;
    if (found.fingerprint !== (fingerprint ?? "")) return fail(appError("IDEMPOTENCY_KEY_REUSED"));
    while (found?.answer === undefined && now() + pollMs < a.headers.deadline) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      found = await deps.queuedOfKey(a.headers.accountId, key);
    }
    if (found?.answer === undefined) return fail(appError("IDEMPOTENCY_IN_PROGRESS"));
    return resultOf(found.answer, true);
  }

  function attemptOf(request: Req, ctx: AccountContext): Attempt<Req> {
    const accountId = ctx.accountId;
    // the API call's deadline, or one of our own for a caller on the bus that set none
    const deadline = ctx.deadline ?? now() + budgetMs;
    const headers = { accountId, requestId: ctx.requestId, deadline };
    const attemptCtx = { accountId, requestId: ctx.requestId, deadline, logger: ctx.logger };
    return { request, since: now(), ctx: attemptCtx, headers };
  }

  return {
    call: async (request, ctx) => {
      if (request.keyScope !== "read_write") return fail(readOnlyKey("emision"));
      const a = attemptOf(request, ctx);
      return (await queued(a)) ?? admitAndIssue(a, true);
    },
    issueAdmitted: (request, ctx) => issue(attemptOf(request, ctx)),
    retry: async (request, ctx) => {
      const a = attemptOf(request, ctx);
      const found = await lookUp(a, request.idempotencyKey);
      if (!found.ok) return fail(found.error);
      if (found.value.state !== "not_issued") {
        return answerSettled(a, found.value, request.idempotencyKey);
      }
      return admitAndIssue(a, true);
    },
    abandon: async (request, ctx) => {
      const a = attemptOf(request, ctx);
      const key = request.idempotencyKey;
      const found = await lookUp(a, key);
      if (!found.ok) return fail(found.error);
      if (found.value.state !== "not_issued") return answerSettled(a, found.value, key);
      // billing names the attempt the key is bound to (or binds it to this one): freed
      const admission = await deps.bus.request(
        billing.facturaAdmit,
        {
          environment: request.environment,
          idempotencyKey: key,
          fingerprint: request.fingerprint ?? "",
        },
        a.headers,
      );
      if (!admission.ok) return admission;
      const { value } = admission;
      if (value.decision === "replay") return resultOf(value.answer, true);
      const bound = value.decision === "resolve" ? value.requestId : a.headers.requestId;
      await settle(a, ended(a, "refused", bound));
      return fail(appError("ASYNC_ISSUANCE_EXPIRED"));
    },
  };
}
