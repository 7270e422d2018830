import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

export interface PostAnswer {
  status: number;
  text: string;
}

/** The deadline passed; named as fetch names its own, so callers tell a timeout by name alike. */
class PostTimeout extends Error {
  override name = "TimeoutError";
}

// Keep-alive pools shared by every client of the process: a query reuses a warm connection.
// The authority's production hosts negotiate a DH key that OpenSSL 3 refuses at its default
// security level (authority-ws.md §8.9), hence SECLEVEL=1 for these connections only.
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 128, keepAliveMsecs: 10_000 });
const httpsAgent = new HttpsAgent({
  keepAlive: true,
  maxSockets: 128,
  keepAliveMsecs: 10_000,
  ciphers: "DEFAULT@SECLEVEL=1",
});

/**
 * POSTs a body and reads the whole answer as UTF-8 text, with one deadline for the whole
 * exchange. node:http over a keep-alive agent: on this hot path it costs less than `fetch`,
 * which allocates web streams and an AbortSignal per request.
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
    const request = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method: "POST",
        agent: secure ? httpsAgent : httpAgent,
        headers: { ...headers, "content-length": String(payload.length) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
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
