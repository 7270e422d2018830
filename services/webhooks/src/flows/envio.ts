import type { LookupAddress, LookupOptions } from "node:dns";
import { Agent, fetch, type Response } from "undici";
import { firma } from "../domain/firma.js";
import type { WebhookPayload } from "../domain/payload.js";
import type { CheckedAddress } from "../domain/url.js";

/** How long a receiver has to answer. */
export const ENVIO_TIMEOUT_MS = 10_000;
/** The most of a receiver's answer that is read: only its status decides. */
export const RESPONSE_READ_MAX = 64 * 1024;
export const USER_AGENT = "Pasarela-Webhooks/1";

/** How one POST ended: a 2xx is delivered, anything else is retried. */
export interface EnvioResult {
  readonly delivered: boolean;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
}

/** Reads at most RESPONSE_READ_MAX bytes of the answer and drops the rest. */
async function readCapped(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_READ_MAX) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_READ_MAX).toString("utf8");
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A connection pool for one attempt whose every connection goes to `pinned`, whatever the
 * name resolves to now: the address checked is the address called. The URL's host name is
 * still the one sent (Host header, TLS SNI and certificate check).
 */
function pinnedAgent(pinned: CheckedAddress): Agent {
  const lookup = (_hostname: string, options: LookupOptions, callback: LookupCallback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
  return new Agent({ connect: { lookup }, connections: 1, pipelining: 0 });
}

/**
 * POSTs one payload, signed with `secretos` (current first) at `now`, to `pinned` when given
 * (the address checked for this attempt). Never follows a redirect (a 3xx is a failure: the
 * address registered is the one that receives), sends no credentials (no cookies, no
 * authorization, none from the URL, which the contract refuses) and reads at most
 * RESPONSE_READ_MAX bytes of the answer; its status decides, its text only explains a failure.
 */
export async function enviar(
  url: string,
  payload: WebhookPayload,
  secretos: readonly string[],
  options: { now?: () => Date; timeoutMs?: number; pinned?: CheckedAddress } = {},
): Promise<EnvioResult> {
  const body = JSON.stringify(payload);
  const timestamp = Math.floor((options.now ?? (() => new Date()))().getTime() / 1000);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const dispatcher = options.pinned ? pinnedAgent(options.pinned) : undefined;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": payload.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": firma(secretos, payload.id, timestamp, body),
      },
      body,
      redirect: "manual",
      credentials: "omit",
      signal: AbortSignal.timeout(options.timeoutMs ?? ENVIO_TIMEOUT_MS),
      ...(dispatcher ? { dispatcher } : {}),
    });
    const text = await readCapped(response);
    const latencyMs = elapsed();
    if (response.status >= 200 && response.status < 300) {
      return { delivered: true, statusCode: response.status, error: null, latencyMs };
    }
    const why =
      response.status >= 300 && response.status < 400
        ? `redirección a ${response.headers.get("location") ?? "(sin location)"}: no se sigue`
        : text.trim().slice(0, 500);
    return {
      delivered: false,
      statusCode: response.status,
      error: `HTTP ${response.status}${why ? `: ${why}` : ""}`,
      latencyMs,
    };
  } catch (error) {
    const latencyMs = elapsed();
    const timedOut = error instanceof DOMException && error.name === "TimeoutError";
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      delivered: false,
      statusCode: null,
      error: timedOut
        ? `sin respuesta en ${(options.timeoutMs ?? ENVIO_TIMEOUT_MS) / 1000} s`
        : `no se pudo conectar: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      latencyMs,
    };
  } finally {
    await dispatcher?.destroy().catch(() => undefined);
  }
}
