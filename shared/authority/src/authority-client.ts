import { observeAuthorityDate } from "./authority-clock.js";
import { AUTHORITY_MAX_BODY_BYTES, httpPost, type PostAnswer } from "./http-post.js";
import { localName, socketFailure, type SoapFailure } from "./soap-failure.js";
import { traceAuthorityCall } from "./tracing.js";
import { readXml, type XmlObject } from "./xml-reader.js";

/**
 * The one way the gateway calls the authority, whichever piece writes the envelope (the ASMX
 * templates of WSFE and WSFEX, the JAX-WS templates of the registry, the `soap` package for
 * WSAA's loginCms): the shared keep-alive transport with its deadline, body cap and trusted
 * CAs; one reader for the answer (`readXml`); one reading of SOAP faults, HTTP errors and
 * socket failures into a `SoapFailure`; one CLIENT span and its metrics per operation. What
 * sets a dialect apart is only the envelope it hands over and where in the answer's Body its
 * result sits.
 */

/** What a piece that writes envelopes hands over: the HTTP headers and the SOAP text. */
export interface SoapRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** POSTs a body and answers the status and the text; throws on a socket failure or timeout. */
export type AuthorityPost = (
  endpoint: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
) => Promise<PostAnswer>;

/** A call's outcome: the dialect's value, or why there is none (with the Fault, if one came). */
export type CallOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly failure: SoapFailure;
      /** the answer's `Fault` element, for a dialect that reads its `detail` */
      readonly fault?: XmlObject | undefined;
    };

export interface AuthorityCall<T> {
  /** the operation's name, for traces */
  readonly operation: string;
  /** the envelope, as the dialect's writer makes it (built inside the call's span) */
  readonly request: () => SoapRequest | Promise<SoapRequest>;
  /** shortens the configured timeout for this call (what is left of a deadline) */
  readonly budgetMs?: number | undefined;
  /** the value in the Body of an answer that is neither a fault nor an HTTP error */
  readonly read: (body: XmlObject) => CallOutcome<T>;
  /** the authority's own error codes in a good answer, for traces and metrics */
  readonly errorCodes?: (value: T) => readonly string[];
}

export interface AuthorityClientOptions {
  readonly endpoint: string;
  readonly timeoutMs: number;
  /** the web service's name for traces (wsaa, wsfe, wsfex, ws_sr_padron_a13, …) */
  readonly service: string;
  /** the environment this endpoint belongs to, for traces */
  readonly environment?: string | undefined;
  /** injectable for tests; by default `httpPost` over the shared keep-alive pool */
  readonly post?: AuthorityPost | undefined;
}

export interface AuthorityClient {
  readonly endpoint: string;
  /** Sends one operation; every failure comes back as a value, never as a throw. */
  call: <T>(call: AuthorityCall<T>) => Promise<CallOutcome<T>>;
}

function record(value: unknown): XmlObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as XmlObject)
    : undefined;
}

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/** A `Fault` in SOAP 1.1 (faultcode/faultstring) or 1.2 (Code/Value, Reason/Text). */
function faultOf(fault: XmlObject, status: number): SoapFailure {
  const code = text(fault.faultcode) ?? text(record(fault.Code)?.Value) ?? "";
  const message = text(fault.faultstring) ?? text(record(fault.Reason)?.Text) ?? "";
  return { kind: "fault", code: localName(code), message: message.trim(), status };
}

/**
 * Reads one answer's envelope: its Body (empty when the envelope has none), or the fault, the
 * HTTP error or the unreadable text it is instead. A fault wins over its HTTP status; text that
 * is not XML under an error status is that HTTP error.
 */
export function readEnvelope(answer: PostAnswer): CallOutcome<XmlObject> {
  const { status } = answer;
  let doc: XmlObject;
  try {
    doc = readXml(answer.text);
  } catch (error) {
    return status >= 300
      ? { ok: false, failure: { kind: "http", status } }
      : {
          ok: false,
          failure: {
            kind: "unreadable",
            message: error instanceof Error ? error.message : String(error),
          },
        };
  }
  const body = record(record(doc.Envelope)?.Body) ?? {};
  const fault = record(body.Fault);
  if (fault) return { ok: false, failure: faultOf(fault, status), fault };
  if (status >= 300) return { ok: false, failure: { kind: "http", status } };
  return { ok: true, value: body };
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === "TimeoutError" || name === "AbortError";
}

/** A transport over an injected `fetch` (tests script the authority with one). */
export function postWithFetch(doFetch: typeof fetch): AuthorityPost {
  return async (endpoint, headers, body, timeoutMs) => {
    const response = await doFetch(endpoint, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    return {
      status: response.status,
      text: await response.text(),
      date: response.headers.get("date") ?? undefined,
    };
  };
}

export function makeAuthorityClient(options: AuthorityClientOptions): AuthorityClient {
  const { endpoint } = options;
  const post = options.post ?? httpPost;
  const target = { service: options.service, endpoint, environment: options.environment };
  return {
    endpoint,
    call: (call) =>
      traceAuthorityCall(
        target,
        call.operation,
        () => send(call),
        (outcome) =>
          outcome.ok ? { ok: true, errorCodes: call.errorCodes?.(outcome.value) ?? [] } : outcome,
      ),
  };

  async function send<T>(call: AuthorityCall<T>): Promise<CallOutcome<T>> {
    const timeoutMs = Math.min(options.timeoutMs, call.budgetMs ?? Infinity);
    const request = await call.request();
    let answer: PostAnswer;
    const sentAt = Date.now();
    try {
      answer = await post(endpoint, { ...request.headers }, request.body, timeoutMs);
      if (options.environment !== undefined) {
        observeAuthorityDate(options.environment, answer.date, sentAt, Date.now());
      }
    } catch (error) {
      if (isTimeout(error)) return { ok: false, failure: { kind: "timeout", timeoutMs } };
      return { ok: false, failure: socketFailure(error, AUTHORITY_MAX_BODY_BYTES) };
    }
    const envelope = readEnvelope(answer);
    return envelope.ok ? call.read(envelope.value) : envelope;
  }
}
