import { billing, wsfe, type ReplyOf } from "@pasarela/contracts";
import {
  appError,
  authorityRejected,
  issuanceOutcomeUnknown,
  type AppError,
} from "@pasarela/errors";
import type { FastifyRequest } from "fastify";
import { EdgeError } from "../http/edge-error.js";
import { errorAnswer } from "../http/error-handler.js";
import { bodyFingerprint } from "../http/fingerprint.js";
import { noteErrorCode, noteQuotaConsumed } from "../http/usage.js";
import { pdfUrlFor } from "./pdf.js";
import type { Caller } from "./route-module.js";

/** An answer of POST /api/wsfe/facturas: a 200 voucher, or a 422 replayed as first given. */
export interface FacturaAnswer {
  status: number;
  body: unknown;
}

/** How an answer ends an admitted issuance, for billing (see billing.facturaComplete). */
function outcomeOf(status: number): billing.FacturaOutcome {
  if (status === 200 || status === 422) return "final";
  return status >= 500 ? "unknown" : "refused";
}

interface Attempt {
  call: Caller;
  request: FastifyRequest;
  body: wsfe.FacturaBody;
  key: string | undefined;
}

/**
 * Reports how an admitted attempt ended: billing stores the answer for replays, commits or
 * releases the quota and counts rejections. Awaited, so a repeat right after the answer is
 * replayed; when it fails, the voucher events complete the record instead.
 */
async function report(
  a: Attempt,
  answer: { status: number; body: unknown; code?: string; outcome?: billing.FacturaOutcome },
  attempt?: string,
): Promise<void> {
  try {
    await a.call(a.request, billing.facturaComplete, {
      environment: a.body.environment,
      outcome: answer.outcome ?? outcomeOf(answer.status),
      status: answer.status,
      body: answer.body,
      ...(a.key === undefined ? {} : { idempotencyKey: a.key }),
      ...(answer.code === undefined ? {} : { code: answer.code }),
      ...(attempt === undefined ? {} : { attempt }),
    });
  } catch (error) {
    a.request.log.warn({ err: error, requestId: a.request.id }, "issuance outcome not reported");
  }
}

/** Issues an admitted voucher through wsfe and reports the answer, error or not. */
async function issue(a: Attempt): Promise<FacturaAnswer> {
  let reply: wsfe.FacturaHttpReply;
  try {
    reply = wsfe.facturaHttpReply(
      await a.call(a.request, wsfe.facturaIssue, {
        ...a.body,
        ...(a.key === undefined ? {} : { idempotencyKey: a.key }),
      }),
    );
  } catch (error) {
    const refused = issuanceFailure(
      a,
      error instanceof EdgeError ? error.appError : appError("INTERNAL"),
    );
    await report(a, { ...errorAnswer(refused), code: refused.code });
    throw error instanceof EdgeError ? new EdgeError(refused) : error;
  }
  const answer = { status: 200, body: await withPdfUrl(a, reply) };
  await report(a, answer);
  if (a.body.environment === "produccion") noteQuotaConsumed(a.request);
  return answer;
}

/**
 * The wsfe instance that had the issuance stopped answering mid-way (it died): the voucher may
 * have been sent, so the caller hears that its outcome is unknown and that a retry with the
 * same Idempotency-Key tells it, once the series' next writer has settled the voucher.
 */
function issuanceFailure(a: Attempt, error: AppError): AppError {
  const { details } = error;
  if (
    error.code !== "SERVICE_UNAVAILABLE" ||
    details?.subject !== wsfe.facturaIssue.subject ||
    details.outcome !== "unknown"
  ) {
    return error;
  }
  return issuanceOutcomeUnknown({ ptoVta: a.body.ptoVta, cbteTipo: a.body.cbteTipo }, error);
}

/** The voucher's answer with its shareable PDF link, stored with it so replays carry it too. */
async function withPdfUrl(a: Attempt, reply: wsfe.FacturaHttpReply) {
  return { ...reply, ...(await pdfUrlFor(a.call, a.request, a.body, reply)) };
}

/**
 * The first attempt under this key ended without a known outcome (a 502, a timeout, a crash):
 * wsfe settles it with the authority and answers what it became. Authorized or rejected →
 * that answer, stored for replays; never issued → the key is freed and the voucher issued now.
 */
async function resolve(a: Attempt, attempt: string, key: string): Promise<FacturaAnswer> {
  const found = await a.call(a.request, wsfe.facturaGet, { idempotencyKey: key });
  switch (found.state) {
    case "authorized": {
      const answer = { status: 200, body: await withPdfUrl(a, wsfe.facturaHttpReply(found.reply)) };
      await report(a, answer, attempt);
      if (a.body.environment === "produccion") noteQuotaConsumed(a.request);
      return answer;
    }
    case "rejected": {
      const answer = {
        status: 422,
        body: wsfe.facturaRejectedHttpBody(authorityRejected(found), found, found),
      };
      await report(a, { ...answer, code: "AUTHORITY_REJECTED" }, attempt);
      noteErrorCode(a.request, "AUTHORITY_REJECTED");
      return answer;
    }
    case "not_issued":
      await report(a, { status: 502, body: null, outcome: "refused" }, attempt);
      return admitAndIssue(a, false);
  }
}

/**
 * Billing admits the issuance (the key, the rejection cap,
 * the production quota) before anything reaches the authority; a replay answers the first
 * attempt's status and body; an attempt of unknown outcome is resolved before issuing again.
 */
export async function admitAndIssue(a: Attempt, mayResolve = true): Promise<FacturaAnswer> {
  let admission: ReplyOf<typeof billing.facturaAdmit>;
  try {
    admission = await a.call(a.request, billing.facturaAdmit, {
      environment: a.body.environment,
      ...(a.key === undefined
        ? {}
        : { idempotencyKey: a.key, fingerprint: bodyFingerprint(a.body) }),
    });
  } catch (error) {
    // billing may have admitted (bound the key, reserved quota) after this call gave up
    // waiting: nothing reached wsfe, so that admission is given back rather than left to
    // answer 409 and hold the quota until it expires
    if (error instanceof EdgeError && error.appError.code === "SERVICE_UNAVAILABLE") {
      await report(a, { status: 503, body: null, outcome: "refused" });
    }
    throw error;
  }
  switch (admission.decision) {
    case "replay": {
      const { code } = (admission.body ?? {}) as { code?: unknown };
      if (typeof code === "string") noteErrorCode(a.request, code);
      return { status: admission.status, body: admission.body };
    }
    case "resolve":
      if (!mayResolve || a.key === undefined) {
        throw new EdgeError(appError("IDEMPOTENCY_IN_PROGRESS"));
      }
      return resolve(a, admission.requestId, a.key);
    case "proceed":
      return issue(a);
  }
}
