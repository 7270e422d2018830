import { rootCertificates } from "node:tls";
import { Agent, type Dispatcher } from "undici";

export interface PostAnswer {
  status: number;
  text: string;
  /** the answer's `Date` header: the authority's clock (authority-clock.ts) */
  date?: string | undefined;
}

/**
 * The largest authority answer the gateway reads. The biggest real ones (FEXGetPARAM_DST_CUIT,
 * a few hundred rows) weigh tens of kB; anything near this is a broken or hostile peer, and
 * reading it whole would let one answer exhaust the process's memory.
 */
export const AUTHORITY_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The deadline passed; named as fetch names its own, so callers tell a timeout by name alike. */
class PostTimeout extends Error {
  override name = "TimeoutError";
}

/** The answer outgrew AUTHORITY_MAX_BODY_BYTES: the authority's failure, never read whole. */
class ResponseTooLarge extends Error {
  override name = "ResponseTooLargeError";
}

// One keep-alive pool shared by every client of the process: a call reuses a warm connection.
// The authority's production hosts negotiate a DH key that OpenSSL 3 refuses at its default
// security level ("dh key too small"), hence SECLEVEL=1 for these connections only.
const TLS_CIPHERS = "DEFAULT@SECLEVEL=1";

/**
 * How long an idle keep-alive connection is kept when the server does not say (with a
 * `Keep-Alive: timeout=N` header, which the pool honours, closing a second before: the
 * margin `IDLE_MARGIN_MS`). Below the 5 s most servers keep idle connections: a request sent
 * on a connection the server is closing at that moment fails with ECONNRESET ("socket hang
 * up") before it is read, so the client closes first.
 */
const IDLE_CONNECTION_MS = 4_000;
const IDLE_MARGIN_MS = 1_000;

const trusted: string[] = [];

/**
 * The CA certificates the authority's HTTPS is checked against: the system roots, and the
 * extra ones trusted with `trustAuthorityCa` (listed together: `ca` replaces the default store).
 */
export function authorityCas(): readonly string[] {
  return [...rootCertificates, ...trusted];
}

const makeDispatcher = (): Agent =>
  new Agent({
    connections: 128,
    keepAliveTimeout: IDLE_CONNECTION_MS,
    keepAliveTimeoutThreshold: IDLE_MARGIN_MS,
    connect: { ciphers: TLS_CIPHERS, ...(trusted.length === 0 ? {} : { ca: [...authorityCas()] }) },
  });

let dispatcher = makeDispatcher();

/**
 * Trusts the CA certificates of a PEM (one or several) for the authority's HTTPS, besides the
 * system roots: a local stand-in such as the simulator presents a certificate from its own
 * CA. Process-wide and additive, like the pool; called once at start from configuration
 * (AUTHORITY_CA_FILE), before the first call.
 */
export function trustAuthorityCa(pem: string): void {
  if (trusted.includes(pem)) return;
  trusted.push(pem);
  const previous = dispatcher;
  dispatcher = makeDispatcher();
  void previous.close();
}

/** origin and path of each endpoint, parsed once */
const targets = new Map<string, { origin: string; path: string }>();
const targetOf = (endpoint: string) => {
  let target = targets.get(endpoint);
  if (!target) {
    const url = new URL(endpoint);
    target = { origin: url.origin, path: `${url.pathname}${url.search}` };
    targets.set(endpoint, target);
  }
  return target;
};

/**
 * POSTs a body and reads the whole answer as UTF-8 text, with one deadline for the whole
 * exchange and a cap on its size: the transport of every call to the authority. A bare handler on undici's pool: no response stream, no
 * async resource, no abort signal per call; on this hot path it costs a fraction of the CPU of
 * node:http, and far less than `fetch` with its web streams (`npm run bench`).
 */
export function httpPost(
  endpoint: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let failure: Error | undefined;
    let status = 0;
    let date: string | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    // The first failure settles the call: the deadline, the cap or the connection. Aborting
    // a request under way closes its connection, so a half-read answer never returns to the
    // pool; one still queued is dropped when its turn comes.
    const settle = (error: Error) => {
      if (failure) return false;
      failure = error;
      clearTimeout(timer);
      reject(error);
      return true;
    };
    const fail = (error: Error) => {
      if (settle(error)) controller?.abort(error);
    };
    const timer = setTimeout(
      () => fail(new PostTimeout(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const tooLarge = () =>
      new ResponseTooLarge(`la respuesta supera el límite de ${AUTHORITY_MAX_BODY_BYTES} bytes`);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(started) {
        controller = started;
        if (failure) started.abort(failure);
      },
      onResponseStart(_controller, statusCode, responseHeaders) {
        status = statusCode;
        const dated = responseHeaders.date;
        date = typeof dated === "string" ? dated : undefined;
        if (Number(responseHeaders["content-length"] ?? 0) > AUTHORITY_MAX_BODY_BYTES) {
          fail(tooLarge());
        }
      },
      onResponseData(_controller, chunk) {
        if (failure) return;
        size += chunk.length;
        if (size > AUTHORITY_MAX_BODY_BYTES) fail(tooLarge());
        else chunks.push(chunk);
      },
      onResponseEnd() {
        if (failure) return;
        clearTimeout(timer);
        resolve({ status, text: Buffer.concat(chunks, size).toString("utf8"), date });
      },
      onResponseError(_controller, error) {
        settle(error);
      },
    };
    try {
      dispatcher.dispatch({ ...targetOf(endpoint), method: "POST", headers, body }, handler);
    } catch (error) {
      settle(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
