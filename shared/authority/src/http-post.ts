import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { rootCertificates } from "node:tls";
import { Agent, type Dispatcher } from "undici";

export interface PostAnswer {
  status: number;
  text: string;
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

// Keep-alive pools shared by every client of the process: a query reuses a warm connection.
// The authority's production hosts negotiate a DH key that OpenSSL 3 refuses at its default
// security level ("dh key too small"), hence SECLEVEL=1 for these connections only.
const TLS_CIPHERS = "DEFAULT@SECLEVEL=1";
// `ca` replaces the default trust store, so the system roots are listed with the extras
const caOption = (extraCas: readonly string[]) =>
  extraCas.length === 0 ? {} : { ca: [...rootCertificates, ...extraCas] };

/**
 * How long an idle keep-alive connection is kept when the server does not say (with a
 * `Keep-Alive: timeout=N` header, which both clients honour, closing a second or two before).
 * Below the 5 s most servers keep idle connections: a request sent on a connection the
 * server is closing at that moment fails with ECONNRESET ("socket hang up") before it is read,
 * so the client closes first.
 */
const IDLE_CONNECTION_MS = 4_000;

/** undici's pool, for the hot path (httpPost). */
const makeDispatcher = (extraCas: readonly string[]): Agent =>
  new Agent({
    connections: 128,
    keepAliveTimeout: IDLE_CONNECTION_MS,
    connect: { ciphers: TLS_CIPHERS, ...caOption(extraCas) },
  });

/**
 * node's agents, for the clients built on axios (the `soap` package, for WSAA). `timeout` is
 * what closes an idle socket, and only with it set does the agent honour the server's
 * `Keep-Alive` hint; during a call axios's own deadline replaces it. (`keepAliveMsecs` is the
 * TCP keep-alive probe delay, not an idle limit.)
 */
const httpAgent = new HttpAgent({
  keepAlive: true,
  maxSockets: 128,
  keepAliveMsecs: 10_000,
  timeout: IDLE_CONNECTION_MS,
});
const makeHttpsAgent = (extraCas: readonly string[]): HttpsAgent =>
  new HttpsAgent({
    keepAlive: true,
    maxSockets: 128,
    keepAliveMsecs: 10_000,
    timeout: IDLE_CONNECTION_MS,
    ciphers: TLS_CIPHERS,
    ...caOption(extraCas),
  });

const trusted: string[] = [];
let httpsAgent = makeHttpsAgent(trusted);
let dispatcher = makeDispatcher(trusted);

/**
 * Trusts the CA certificates of a PEM (one or several) for the authority's HTTPS, besides the
 * system roots: a local stand-in such as the simulator presents a certificate from its own
 * CA. Process-wide and additive, like the agents; called once at start from configuration
 * (AUTHORITY_CA_FILE), before the first call.
 */
export function trustAuthorityCa(pem: string): void {
  if (trusted.includes(pem)) return;
  trusted.push(pem);
  const previous = { httpsAgent, dispatcher };
  httpsAgent = makeHttpsAgent(trusted);
  dispatcher = makeDispatcher(trusted);
  previous.httpsAgent.destroy();
  void previous.dispatcher.close();
}

/**
 * The same transport for clients built on axios (the `soap` package, for WSAA): the agents
 * with the trusted CAs, and the body cap (axios destroys the response past it).
 */
export function authorityAxiosOptions(): {
  httpAgent: HttpAgent;
  httpsAgent: HttpsAgent;
  maxContentLength: number;
} {
  return { httpAgent, httpsAgent, maxContentLength: AUTHORITY_MAX_BODY_BYTES };
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
 * exchange and a cap on its size. A bare handler on undici's pool: no response stream, no
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
        resolve({ status, text: Buffer.concat(chunks, size).toString("utf8") });
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
