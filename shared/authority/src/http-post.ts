import { EventEmitter } from "node:events";
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
// security level (authority-ws.md §8.9), hence SECLEVEL=1 for these connections only.
const TLS_CIPHERS = "DEFAULT@SECLEVEL=1";
// `ca` replaces the default trust store, so the system roots are listed with the extras
const caOption = (extraCas: readonly string[]) =>
  extraCas.length === 0 ? {} : { ca: [...rootCertificates, ...extraCas] };

/** undici's pool, for the hot path (httpPost). */
const makeDispatcher = (extraCas: readonly string[]): Agent =>
  new Agent({
    connections: 128,
    keepAliveTimeout: 10_000,
    connect: { ciphers: TLS_CIPHERS, ...caOption(extraCas) },
  });

/** node's agents, for the clients built on axios (the `soap` package, for WSAA). */
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 128, keepAliveMsecs: 10_000 });
const makeHttpsAgent = (extraCas: readonly string[]): HttpsAgent =>
  new HttpsAgent({
    keepAlive: true,
    maxSockets: 128,
    keepAliveMsecs: 10_000,
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
 * exchange and a cap on its size. undici's pool: on this hot path it costs about half the CPU
 * of node:http per call (`npm run bench`), and far less than `fetch` with its web streams.
 */
export async function httpPost(
  endpoint: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostAnswer> {
  // an emitter rather than an AbortController: undici listens to either, and this one is cheap
  const abort = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.emit("abort");
  }, timeoutMs);
  try {
    const response = await dispatcher.request({
      ...targetOf(endpoint),
      method: "POST",
      headers,
      body,
      signal: abort,
    });
    const text = await readCapped(response.headers["content-length"], response.body);
    return { status: response.statusCode, text };
  } catch (error) {
    if (timedOut) throw new PostTimeout(`no answer within ${timeoutMs} ms`);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The body as text, or ResponseTooLarge past the cap; destroying an unread body closes its
 * connection, so an oversized answer never returns to the pool.
 */
function readCapped(
  announced: string | string[] | undefined,
  body: Dispatcher.ResponseData["body"],
): Promise<string> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new ResponseTooLarge(`la respuesta supera el límite de ${AUTHORITY_MAX_BODY_BYTES} bytes`);
    if (Number(announced ?? 0) > AUTHORITY_MAX_BODY_BYTES) {
      body.destroy();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    body.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= AUTHORITY_MAX_BODY_BYTES) chunks.push(chunk);
      else body.destroy(tooLarge());
    });
    body.on("end", () => resolve(Buffer.concat(chunks, size).toString("utf8")));
    body.on("error", reject);
  });
}
