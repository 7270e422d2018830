import { wsfe } from "@pasarela/contracts";
import { issuanceOutcomeUnknown, type AppError } from "@pasarela/errors";
import type { FastifyRequest } from "fastify";
import { EdgeError } from "../http/edge-error.js";
import { bodyFingerprint } from "../http/fingerprint.js";
import { noteQuotaConsumed } from "../http/usage.js";
import type { Caller, Publisher } from "./route-module.js";

/** What the edge reads of an issuance body, domestic or export. */
interface IssuanceBody {
  readonly environment: wsfe.FacturaBody["environment"];
  readonly ptoVta?: number | undefined;
  readonly cbteTipo: number;
}

interface Attempt<B extends IssuanceBody = wsfe.FacturaBody> {
  call: Caller;
  publish: Publisher;
  request: FastifyRequest;
  body: B;
  key: string | undefined;
}

/** The subject that owns the issuance (wsfe.factura.issue, or wsfe.exportacion.issue). */
type IssuanceSubject = string;

/**
 * The wsfe instance that had the issuance stopped answering mid-way (it died, or the call's
 * time ran out): the voucher may have been sent, so the caller hears that its outcome is
 * unknown and that a retry with the same Idempotency-Key tells it, once the series' next
 * writer has settled the voucher.
 */
function issuanceFailure(
  a: Attempt<IssuanceBody>,
  subject: IssuanceSubject,
  error: AppError,
): AppError {
  const { details } = error;
  if (
    error.code !== "SERVICE_UNAVAILABLE" ||
    details?.subject !== subject ||
    details.outcome !== "unknown"
  ) {
    return error;
  }
  return issuanceOutcomeUnknown({ ptoVta: a.body.ptoVta, cbteTipo: a.body.cbteTipo }, error);
}

/**
 * No answer came from the flow that owns the issuance (it died or ran out of time): the
 * attempt ends, as far as the caller knows, in an unknown outcome. That is an outcome event
 * like the flow's own, so billing lets a retry under the key be resolved (the voucher looked
 * up) instead of waiting out the lease. Applied once by its id; harmless when the flow did
 * end the attempt, since an unknown outcome never undoes a final one.
 */
async function endUnanswered(a: Attempt<IssuanceBody> & { key: string }): Promise<void> {
  const accountId = a.request.principal?.accountId;
  if (accountId === undefined) return;
  try {
    await a.publish(a.request, wsfe.emisionTerminada, {
      id: wsfe.emisionEventId(a.request.id, "unknown"),
      version: 1,
      accountId,
      environment: a.body.environment,
      requestId: a.request.id,
      idempotencyKey: a.key,
      outcome: "unknown",
      occurredAt: new Date().toISOString(),
    });
  } catch (error) {
    a.request.log.warn({ err: error, requestId: a.request.id }, "issuance outcome not published");
  }
}

/** What the call carries besides the body: the key, the body's fingerprint, the key's scope. */
function callFields(a: Attempt<IssuanceBody>) {
  return {
    ...(a.key === undefined ? {} : { idempotencyKey: a.key, fingerprint: bodyFingerprint(a.body) }),
    keyScope: a.request.principal?.scope ?? "read_only",
  };
}

/**
 * One request to wsfe, which owns the issuance from there: billing's admission (the key, the
 * rejection cap, the production quota), the voucher, its PDF link and its outcome event. A
 * replay answers the first attempt's answer; an error answer is thrown to the error handler.
 */
async function issue<F>(
  a: Attempt<IssuanceBody>,
  subject: IssuanceSubject,
  send: () => Promise<{ factura: F; replayed: boolean }>,
): Promise<F> {
  let answer: { factura: F; replayed: boolean };
  try {
    answer = await send();
  } catch (error) {
    // wsfe's own answers (a 503 of a service it asked included) were reported by its flow
    const details = error instanceof EdgeError ? error.appError.details : undefined;
    if (
      error instanceof EdgeError &&
      error.appError.code === "SERVICE_UNAVAILABLE" &&
      details?.subject === subject &&
      details.reason !== "no responders"
    ) {
      // without a key, nothing waits on the attempt's outcome: the quota hold expires
      if (a.key !== undefined) await endUnanswered({ ...a, key: a.key });
      throw new EdgeError(issuanceFailure(a, subject, error.appError));
    }
    throw error;
  }
  if (!answer.replayed && a.body.environment === "produccion") noteQuotaConsumed(a.request);
  return answer.factura;
}

/** `POST /api/wsfe/facturas`: a domestic voucher (wsfe.factura.issue). */
export function issueFactura(a: Attempt<wsfe.FacturaBody>): Promise<wsfe.FacturaHttpReply> {
  return issue(a, wsfe.facturaIssue.subject, () =>
    a.call(a.request, wsfe.facturaIssue, { ...a.body, ...callFields(a) }),
  );
}

/** `POST /api/wsfex/facturas`: an export voucher (wsfe.exportacion.issue). */
export function issueExportacion(
  a: Attempt<wsfe.ExportacionBody>,
): Promise<wsfe.ExportacionHttpReply> {
  return issue(a, wsfe.exportacionIssue.subject, () =>
    a.call(a.request, wsfe.exportacionIssue, { ...a.body, ...callFields(a) }),
  );
}
