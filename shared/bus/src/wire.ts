import { randomUUID } from "node:crypto";
import {
  context,
  propagation,
  SpanStatusCode,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import {
  headers as natsHeaders,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
} from "@nats-io/nats-core";
import { kindOf, type AppError } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { Liveness, ReplyMux } from "./liveness.js";

/**
 * What every exchange over NATS shares, whichever side it is on: the headers the bus writes,
 * the context a handler gets from them, the reply on the wire and the spans' attributes.
 */

/** Headers the bus writes on every request and event; handlers never read headers themselves. */
const HEADER_ACCOUNT_ID = "account-id";
const HEADER_REQUEST_ID = "request-id";
/**
 * The milliseconds left of the caller's deadline when the request left, as gRPC sends its
 * timeout: relative, so instances whose clocks differ still agree on it.
 */
const HEADER_BUDGET = "budget-ms";

/** What a handler knows about the request beyond its body. */
export interface HandlerContext {
  readonly accountId: string | undefined;
  readonly requestId: string;
  readonly subject: string;
  /**
   * when (Date.now() scale) the caller wants the answer by; undefined when it set none.
   * Whatever waits on the authority ends before it (AUTHORITY_STEP_MARGIN_MS).
   */
  readonly deadline: number | undefined;
  /** a child logger carrying subject, request id and account id; trace ids come with the span */
  readonly logger: Logger;
}

export interface RequestOptions {
  accountId?: string | undefined;
  requestId?: string | undefined;
  timeoutMs?: number | undefined;
  /**
   * when (Date.now() scale) the answer is wanted by: carried to the handler, and the wait for
   * the reply ends DEADLINE_SLACK_MS after it at the latest. A handler passes its own
   * `ctx.deadline` on, so every hop of one API call shares one deadline.
   */
  deadline?: number | undefined;
}

/** What the parts of a connected bus share: the connection and the process's settings. */
export interface BusCore {
  readonly connection: NatsConnection;
  readonly replies: ReplyMux;
  readonly liveness: Liveness;
  /** the subject on the wire: the deployment's prefix, then the contract's subject */
  readonly subjectOf: (name: string) => string;
  readonly logger: Logger;
  readonly tracer: Tracer;
  readonly defaultTimeoutMs: number;
  /** false while the connection to the server is lost */
  readonly isConnected: () => boolean;
  /** the requests in flight, each with what makes it fail at once when the connection drops */
  readonly inFlight: Set<() => void>;
  readonly classifyFailure: ((error: unknown) => AppError | undefined) | undefined;
}

export type WireReply = { ok: true; value: unknown } | { ok: false; error: AppError };

export const encoder = new TextEncoder();
export const decoder = new TextDecoder();

const headerGetter = {
  get: (carrier: MsgHdrs, key: string) => carrier.get(key) || undefined,
  keys: (carrier: MsgHdrs) => carrier.keys(),
};
const headerSetter = {
  set: (carrier: MsgHdrs, key: string, value: string) => carrier.set(key, value),
};

/** The trace context a message's headers carry, or the active one. */
export function contextFrom(headers: MsgHdrs | undefined): Context {
  return headers ? propagation.extract(context.active(), headers, headerGetter) : context.active();
}

export function outgoingHeaders(requestOptions: RequestOptions | undefined): MsgHdrs {
  const h = natsHeaders();
  propagation.inject(context.active(), h, headerSetter);
  if (requestOptions?.accountId) h.set(HEADER_ACCOUNT_ID, requestOptions.accountId);
  h.set(HEADER_REQUEST_ID, requestOptions?.requestId ?? randomUUID());
  if (requestOptions?.deadline !== undefined) {
    h.set(HEADER_BUDGET, String(Math.max(0, Math.round(requestOptions.deadline - Date.now()))));
  }
  return h;
}

/** The account a message carries, if any. */
export function accountOf(msg: Msg): string | undefined {
  return msg.headers?.get(HEADER_ACCOUNT_ID) || undefined;
}

export function handlerContext(msg: Msg, subject: string, logger: Logger): HandlerContext {
  const accountId = accountOf(msg);
  const requestId = msg.headers?.get(HEADER_REQUEST_ID) || randomUUID();
  // anything but a plain count of milliseconds is no deadline at all
  const budget = msg.headers?.get(HEADER_BUDGET) ?? "";
  const deadline = /^\d{1,10}$/.test(budget) ? Date.now() + Number(budget) : undefined;
  // A child logger costs an allocation and a pass over the redaction paths: made only when
  // a handler actually logs.
  let child: Logger | undefined;
  return {
    accountId,
    requestId,
    subject,
    deadline,
    get logger() {
      child ??= logger.child({ subject, requestId, ...(accountId ? { accountId } : {}) });
      return child;
    },
  };
}

/** Error kinds that mean something failed (the span's status is ERROR), not a refused request. */
const FAILURE_KINDS = new Set(["internal", "upstream", "unavailable"]);

export function endSpan(span: Span, error?: AppError): void {
  if (error) {
    span.setAttribute("pasarela.error_code", error.code);
    // the caller's own mistakes (4xx) are answers; the gateway's and the authority's failures
    // are errors of the span that saw them
    if (FAILURE_KINDS.has(kindOf(error.code))) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error.code });
    }
  }
  span.end();
}

/** OpenTelemetry messaging attributes of a span over NATS. */
export function messagingAttributes(
  subject: string,
  operation: "send" | "process" | "publish",
): Record<string, string> {
  return {
    "messaging.system": "nats",
    "messaging.destination.name": subject,
    "messaging.operation.type": operation === "publish" ? "send" : operation,
    "messaging.operation.name": operation === "send" ? "request" : operation,
  };
}
