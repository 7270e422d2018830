import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { rootCertificates } from "node:tls";

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
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 128, keepAliveMsecs: 10_000 });
const makeHttpsAgent = (extraCas: readonly string[]): HttpsAgent =>
  new HttpsAgent({
    keepAlive: true,
    maxSockets: 128,
    keepAliveMsecs: 10_000,
    ciphers: "DEFAULT@SECLEVEL=1",
    // `ca` replaces the default trust store, so the system roots are listed with the extras
    ...(extraCas.length === 0 ? {} : { ca: [...rootCertificates, ...extraCas] }),
  });

const trusted: string[] = [];
let httpsAgent = makeHttpsAgent(trusted);

/**
 * Trusts the CA certificates of a PEM (one or several) for the authority's HTTPS, besides the
 * system roots: a local stand-in such as the simulator presents a certificate from its own
 * CA. Process-wide and additive, like the agents; called once at start from configuration
 * (AUTHORITY_CA_FILE), before the first call.
 */
export function trustAuthorityCa(pem: string): void {
  if (trusted.includes(pem)) return;
  trusted.push(pem);
  const previous = httpsAgent;
  httpsAgent = makeHttpsAgent(trusted);
  previous.destroy();
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

/**
 * POSTs a body and reads the whole answer as UTF-8 text, with one deadline for the whole
 * exchange and a cap on its size. node:http over a keep-alive agent: on this hot path it
 * costs less than `fetch`, which allocates web streams and an AbortSignal per request.
 */
export function httpPost(
  endpoint: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(endpoint);
    const secure = url.protocol === "https:";
    const payload = Buffer.from(body, "utf8");
    // destroying the request closes its socket: an oversized answer never returns to the pool
    const tooLarge = () =>
      request.destroy(
        new ResponseTooLarge(`la respuesta supera el límite de ${AUTHORITY_MAX_BODY_BYTES} bytes`),
      );
    const request = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method: "POST",
        agent: secure ? httpsAgent : httpAgent,
        headers: { ...headers, "content-length": String(payload.length) },
      },
      (response) => {
        if (Number(response.headers["content-length"] ?? 0) > AUTHORITY_MAX_BODY_BYTES) {
          tooLarge();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > AUTHORITY_MAX_BODY_BYTES) tooLarge();
          else chunks.push(chunk);
        });
        response.on("end", () => {
          clearTimeout(timer);
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
          });
        });
        response.on("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(
      () => request.destroy(new PostTimeout(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(payload);
  });
}
