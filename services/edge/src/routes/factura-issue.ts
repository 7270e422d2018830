import { type billing, wsfe } from "@pasarela/contracts";
import { appError, isErrorCode, issuanceOutcomeUnknown, type AppError } from "@pasarela/errors";
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
      // without a key, nothing waits on the attempt's outcome: the quota hold expires. Not
      // waited for: while the stream elects a leader (a NATS server lost) the publication
      // takes seconds, and the caller's answer must not (a retry under the key waits for the
      // attempt, or looks it up once its lease lapses, either way)
      if (a.key !== undefined) void endUnanswered({ ...a, key: a.key });
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

/**
 * Whether the caller prefers an asynchronous answer: `respond-async` among the preferences of
 * its `Prefer` headers (RFC 7240; names are case-insensitive, parameters ignored).
 */
export function prefersAsync(header: string | string[] | undefined): boolean {
  if (header === undefined) return false;
  const values = Array.isArray(header) ? header : [header];
  return values
    .flatMap((value) => value.split(","))
    .some((preference) => {
      const [token = ""] = preference.split(/[;=]/);
      return token.trim().toLowerCase() === "respond-async";
    });
}

/** What an asynchronous issuance request answers: 202 while queued, else its answer now. */
export type QueuedAnswer<F> =
  | { status: 202; location: string; body: wsfe.EmisionAsync }
  | { status: 200; location: string | undefined; body: F };

/**
 * The answer an issuance under the key already has (a synchronous one completed it, or the
 * queued issuance ended): given now, as a synchronous retry would get it.
 */
function answered<F>(answer: billing.FacturaAnswer, location: string | undefined): QueuedAnswer<F> {
  if (answer.kind === "authorized") return { status: 200, location, body: answer.factura as F };
  const { code, message, details } = answer.error;
  if (!isErrorCode(code)) throw new EdgeError(appError("INTERNAL"));
  throw new EdgeError({ code, message, ...(details === undefined ? {} : { details }) });
}

/** One request to wsfe to queue the issuance; `path` is where its state is read. */
async function enqueue<F>(
  path: string,
  send: () => Promise<wsfe.EmisionEnqueueReply>,
): Promise<QueuedAnswer<F>> {
  const reply = await send();
  if (reply.kind === "replay") return answered(reply.answer, undefined);
  const { emision } = reply;
  const location = `${path}/${emision.id}`;
  if (emision.estado === "pendiente" || emision.answer === undefined) {
    return { status: 202, location, body: emision };
  }
  return answered(emision.answer, location);
}

/** `POST /api/wsfe/facturas` with `Prefer: respond-async` (wsfe.factura.enqueue). */
export function enqueueFactura(
  a: Attempt<wsfe.FacturaBody>,
): Promise<QueuedAnswer<wsfe.FacturaHttpReply>> {
  return enqueue("/api/wsfe/facturas", () =>
    a.call(a.request, wsfe.facturaEnqueue, { ...a.body, ...callFields(a) }),
  );
}

/** `POST /api/wsfex/facturas` with `Prefer: respond-async` (wsfe.exportacion.enqueue). */
export function enqueueExportacion(
  a: Attempt<wsfe.ExportacionBody>,
): Promise<QueuedAnswer<wsfe.ExportacionHttpReply>> {
  return enqueue("/api/wsfex/facturas", () =>
    a.call(a.request, wsfe.exportacionEnqueue, { ...a.body, ...callFields(a) }),
  );
}
