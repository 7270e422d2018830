import type { Bus, Handler, HandlerContext } from "@pasarela/bus";
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
import type { VoucherIssueContext } from "./voucher-issue.js";

type Answer = Result<wsfe.FacturaIssueAnswer>;

/**
 * What the flow runs on: the bus (billing, pdf), the voucher's issuance and its lookup.
 *
 * The time budget of one issuance, laid out as the queries' (authority-query.ts). The edge
 * waits min(the contract's 125 s, API_TIMEOUT_MS: 65 s by default) and hands every hop the
 * same deadline D, DEADLINE_SLACK_MS (3 s) before it gives up. 125 s is what the worst case
 * needs with AUTHORITY_TIMEOUT_MS at 30 s: a first WSAA login (30 s), the last number (30 s),
 * one more call (the rate of the day or a reconciliation lookup, 30 s) and FECAESolicitar
 * (30 s), plus 5 s for NATS, billing, the catalog, pdf and the database; raise API_TIMEOUT_MS
 * to give it all. Whatever the budget, FECAESolicitar is sent only while a whole
 * AUTHORITY_TIMEOUT_MS and SEND_MARGIN_MS still fit before D (flows/batches.ts).
 */
export interface FacturaFlowDeps {
  bus: Pick<Bus, "request">;
  /** numbers, sends and stores one admitted voucher (voucher-issue.ts) */
  issueVoucher: (
    request: wsfe.FacturaIssueRequest,
    ctx: VoucherIssueContext,
  ) => Promise<Result<wsfe.FacturaIssueReply>>;
  /** what became of the voucher of an earlier attempt under a key (wsfe.factura.get) */
  facturaGet: Handler<typeof wsfe.facturaGet>;
  /** how long a caller that sets no deadline waits; the contract's timeout by default */
  budgetMs?: number;
  now?: () => number;
}

/** One issuance call, as the flow carries it from step to step. */
interface Attempt {
  request: wsfe.FacturaIssueCall;
  ctx: VoucherIssueContext;
  headers: { accountId: string; requestId: string; deadline: number };
}

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

/** The stored answer as this call's answer: a voucher, or the error it ended with. */
function replayOf(answer: billing.FacturaAnswer): Answer {
  if (answer.kind === "authorized") {
    const factura = wsfe.facturaHttpReplySchema.safeParse(answer.factura);
    return factura.success
      ? ok({ factura: factura.data, replayed: true })
      : fail(appError("INTERNAL"));
  }
  const { code, message, details } = answer.error;
  if (!isErrorCode(code)) return fail(appError("INTERNAL"));
  return fail({ code, message, ...(details === undefined ? {} : { details }) });
}

/**
 * The issuance's lifecycle, owned by wsfe: billing admits it (the key, the rejection cap, the
 * production quota) before anything reaches the authority; a replay answers the first
 * attempt's answer; an attempt of unknown outcome is resolved before issuing again; an
 * admitted voucher is issued, its PDF link made, and the answer reported to billing, which
 * stores it for replays, commits or releases the quota and counts rejections.
 */
export function makeFacturaFlow(deps: FacturaFlowDeps): Handler<typeof wsfe.facturaIssue> {
  const now = deps.now ?? Date.now;
  const budgetMs = (deps.budgetMs ?? wsfe.facturaIssue.timeoutMs ?? 0) - DEADLINE_SLACK_MS;

  /** Reports how an admitted attempt ended. Awaited, so a repeat right after is replayed. */
  async function report(
    a: Attempt,
    outcome: billing.FacturaOutcome,
    answer?: billing.FacturaAnswer,
    attempt?: string,
  ): Promise<void> {
    const { idempotencyKey: key, environment } = a.request;
    const reported = await deps.bus.request(
      billing.facturaComplete,
      {
        environment,
        outcome,
        ...(answer === undefined ? {} : { answer }),
        ...(key === undefined ? {} : { idempotencyKey: key }),
        ...(attempt === undefined ? {} : { attempt }),
      },
      a.headers,
    );
    // when it is lost, the voucher events complete the record instead
    if (!reported.ok) a.ctx.logger.warn({ err: reported.error }, "issuance outcome not reported");
  }

  /** An authorized voucher's answer, with its shareable PDF link when one can be made. */
  async function authorized(a: Attempt, reply: wsfe.FacturaIssueReply, attempt?: string) {
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
      ...wsfe.facturaHttpReply(reply),
      ...(link.ok ? { pdfUrl: link.value.url } : {}),
    };
    await report(a, "final", { kind: "authorized", factura }, attempt);
    return ok({ factura, replayed: false });
  }

  /** An error answer, reported as what it makes of the attempt. */
  async function refused(a: Attempt, error: AppError, attempt?: string): Promise<Answer> {
    const outcome = outcomeOfError(error);
    await report(a, outcome, outcome === "final" ? { kind: "error", error } : undefined, attempt);
    return fail(error);
  }

  async function issue(a: Attempt): Promise<Answer> {
    let result: Result<wsfe.FacturaIssueReply>;
    try {
      const { fingerprint: _fingerprint, keyScope: _scope, ...voucher } = a.request;
      result = await deps.issueVoucher(voucher, a.ctx);
    } catch (error) {
      // a defect of ours after admission: the voucher may have been sent
      await report(a, "unknown");
      throw error;
    }
    return result.ok ? authorized(a, result.value) : refused(a, result.error);
  }

  /**
   * The first attempt under this key ended without a known outcome (a 502, a timeout, a
   * crash): its voucher is settled with the authority and answered as what it became.
   * Authorized or rejected → that answer, stored for replays; never issued → the key is freed
   * and the voucher issued now.
   */
  async function resolve(a: Attempt, attempt: string, key: string): Promise<Answer> {
    const found = await deps.facturaGet({ idempotencyKey: key }, {
      ...a.ctx,
      subject: wsfe.facturaGet.subject,
    } satisfies HandlerContext);
    if (!found.ok) return fail(found.error);
    switch (found.value.state) {
      case "authorized":
        return authorized(a, found.value.reply, attempt);
      case "rejected": {
        const { ptoVta, cbteTipo, cbteNro } = found.value;
        const error = authorityRejected(found.value);
        return refused(
          a,
          { ...error, details: { ...error.details, ptoVta, cbteTipo, cbteNro } },
          attempt,
        );
      }
      case "not_issued":
        await report(a, "refused", undefined, attempt);
        return admitAndIssue(a, false);
    }
  }

  async function admitAndIssue(a: Attempt, mayResolve: boolean): Promise<Answer> {
    const { idempotencyKey: key, fingerprint } = a.request;
    const admission = await deps.bus.request(
      billing.facturaAdmit,
      {
        environment: a.request.environment,
        ...(key === undefined ? {} : { idempotencyKey: key, fingerprint: fingerprint ?? "" }),
      },
      a.headers,
    );
    if (!admission.ok) {
      // billing may have admitted (bound the key, reserved quota) after this call gave up
      // waiting: nothing was issued, so that admission is given back rather than left to
      // answer 409 and hold the quota until it expires
      if (admission.error.code === "SERVICE_UNAVAILABLE") await report(a, "refused");
      return admission;
    }
    switch (admission.value.decision) {
      case "replay":
        return replayOf(admission.value.answer);
      case "resolve":
        if (!mayResolve || key === undefined) return fail(appError("IDEMPOTENCY_IN_PROGRESS"));
        return resolve(a, admission.value.requestId, key);
      case "proceed":
        return issue(a);
    }
  }

  return async (request, ctx) => {
    const accountId = ctx.accountId;
    if (request.keyScope !== "read_write") return fail(readOnlyKey("emision"));
    // the API call's deadline, or one of our own for a caller on the bus that set none
    const deadline = ctx.deadline ?? now() + budgetMs;
    const headers = { accountId, requestId: ctx.requestId, deadline };
    const attemptCtx = { accountId, requestId: ctx.requestId, deadline, logger: ctx.logger };
    return admitAndIssue({ request, ctx: attemptCtx, headers }, true);
  };
}
