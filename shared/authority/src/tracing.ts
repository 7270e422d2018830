import { SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import { counter, histogram, secondsSince } from "@pasarela/telemetry";
import type { SoapFailure } from "./soap-failure.js";

/** Which of the authority's services a client speaks to, for its spans. */
export interface AuthorityTarget {
  /** the web service as the authority names it: wsfe, wsfex, wsaa, ws_sr_padron_a13, … */
  readonly service: string;
  readonly endpoint: string;
  /** homologacion / produccion, when the client is bound to one */
  readonly environment?: string | undefined;
}

const tracer = trace.getTracer("pasarela.authority");

const calls = counter(
  "pasarela_authority_calls_total",
  "SOAP operations sent to the authority, by outcome: ok, err (an answer carrying the authority's error codes) or the transport failure's kind",
  ["service", "operation", "environment", "outcome"],
);
const callSeconds = histogram(
  "pasarela_authority_call_duration_seconds",
  "Time the authority took to answer one SOAP operation (or to fail)",
  ["service", "operation", "environment"],
);
const errorCodes = counter(
  "pasarela_authority_error_codes_total",
  "The authority's own error codes (Err/Code, FEXErr, fault codes) in its answers",
  ["service", "operation", "code"],
);

/** Host and port of an endpoint, without its path or query (never a secret, never a token). */
function serverOf(endpoint: string): { address: string; port: number } | undefined {
  try {
    const url = new URL(endpoint);
    const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
    return { address: url.hostname, port };
  } catch {
    return undefined;
  }
}

/** The HTTP status a failure carries, when it came with an answer at all. */
function statusOf(failure: SoapFailure): number | undefined {
  return failure.kind === "fault" || failure.kind === "http" ? failure.status : undefined;
}

function failureMessage(failure: SoapFailure): string {
  switch (failure.kind) {
    case "fault":
      return `fault ${failure.code}`;
    case "timeout":
      return `timeout after ${failure.timeoutMs} ms`;
    case "http":
      return `HTTP ${failure.status}`;
    case "too-large":
      return `answer over ${failure.limitBytes} bytes`;
    case "network":
    case "tls":
    case "unreadable":
      return `${failure.kind}: ${failure.message}`;
  }
}

/** What a client's call answered, as its span needs it. */
export type SpanOutcome =
  | { readonly ok: true; readonly errorCodes?: readonly string[] }
  | { readonly ok: false; readonly failure: SoapFailure };

/**
 * One CLIENT span per SOAP operation sent to the authority: service, operation, environment,
 * host, HTTP status and the authority's own error codes (a fault code, or the `Err/Code`s of
 * an answer). The span never carries the request or the answer: they hold the token and sign.
 */
export async function traceAuthorityCall<T>(
  target: AuthorityTarget,
  operation: string,
  call: () => Promise<T>,
  describe: (outcome: T) => SpanOutcome,
): Promise<T> {
  const server = serverOf(target.endpoint);
  const span = tracer.startSpan(`${target.service} ${operation}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      "rpc.system": "soap",
      "rpc.service": target.service,
      "rpc.method": operation,
      ...(target.environment ? { "pasarela.environment": target.environment } : {}),
      ...(server ? { "server.address": server.address, "server.port": server.port } : {}),
    },
  });
  const startedAt = performance.now();
  const labels = {
    service: target.service,
    operation,
    environment: target.environment ?? "unknown",
  };
  try {
    const outcome = await call();
    const described = describe(outcome);
    record(span, described);
    count(labels, described);
    return outcome;
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: "client failed" });
    calls.inc({ ...labels, outcome: "exception" });
    throw error;
  } finally {
    span.end();
    callSeconds.observe(labels, secondsSince(startedAt));
  }
}

function count(
  labels: { service: string; operation: string; environment: string },
  outcome: SpanOutcome,
): void {
  const codes = outcome.ok ? [...(outcome.errorCodes ?? [])] : [];
  if (!outcome.ok && outcome.failure.kind === "fault") codes.push(outcome.failure.code);
  for (const code of codes) {
    errorCodes.inc({ service: labels.service, operation: labels.operation, code });
  }
  const result = outcome.ok ? (codes.length > 0 ? "err" : "ok") : outcome.failure.kind;
  calls.inc({ ...labels, outcome: result });
}

function record(span: Span, outcome: SpanOutcome): void {
  if (outcome.ok) {
    span.setAttribute("http.response.status_code", 200);
    if (outcome.errorCodes && outcome.errorCodes.length > 0) {
      span.setAttribute("pasarela.authority.error_codes", [...outcome.errorCodes]);
    }
    return;
  }
  const { failure } = outcome;
  const status = statusOf(failure);
  if (status !== undefined) span.setAttribute("http.response.status_code", status);
  span.setAttribute("error.type", failure.kind);
  if (failure.kind === "fault") {
    span.setAttribute("pasarela.authority.error_codes", [failure.code]);
  }
  span.setStatus({ code: SpanStatusCode.ERROR, message: failureMessage(failure) });
}
