import { createHmac, timingSafeEqual } from "node:crypto";

/** How far a notification's timestamp may be from our clock before it is taken as a replay. */
export const SIGNATURE_TOLERANCE_MS = 10 * 60 * 1000;

export interface SignedNotification {
  readonly dataId?: string | undefined;
  readonly xSignature?: string | undefined;
  readonly xRequestId?: string | undefined;
}

export type SignatureCheck =
  | { readonly valid: true; readonly ts: number }
  | { readonly valid: false; readonly reason: string };

/** `ts=<seconds>,v1=<hex>` in any order; unknown parts are ignored. */
function parts(header: string): { ts?: string; v1?: string } {
  const found: { ts?: string; v1?: string } = {};
  for (const part of header.split(",")) {
    const [key, value] = part.split("=", 2).map((s) => s.trim());
    if (key === "ts" && value) found.ts = value;
    if (key === "v1" && value) found.v1 = value;
  }
  return found;
}

/**
 * Mercado Pago's webhook signature: `x-signature: ts=<ts>,v1=<hmac>`, where hmac is the
 * HMAC-SHA256 (hex) under the account's secret of the manifest
 * `id:<data.id>;request-id:<x-request-id>;ts:<ts>;` (data.id from the query string, in lower
 * case when alphanumeric; a missing value's part is left out). Compared in constant time; a
 * timestamp outside the tolerance is refused as a replay.
 */
export function verifySignature(
  notification: SignedNotification,
  secret: string,
  now: number,
): SignatureCheck {
  if (!notification.xSignature) return { valid: false, reason: "no x-signature header" };
  const { ts, v1 } = parts(notification.xSignature);
  if (!ts || !/^\d{1,16}$/.test(ts) || !v1 || !/^[0-9a-f]{64}$/i.test(v1)) {
    return { valid: false, reason: "malformed x-signature header" };
  }
  const manifest = signatureManifest(notification.dataId, notification.xRequestId, ts);
  const expected = createHmac("sha256", secret).update(manifest).digest();
  const given = Buffer.from(v1, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { valid: false, reason: "signature does not match" };
  }
  // seconds as documented; milliseconds accepted too
  const tsMs = ts.length >= 13 ? Number(ts) : Number(ts) * 1000;
  if (Math.abs(now - tsMs) > SIGNATURE_TOLERANCE_MS) {
    return { valid: false, reason: "timestamp outside the tolerance (replay?)" };
  }
  return { valid: true, ts: tsMs };
}

export function signatureManifest(
  dataId: string | undefined,
  requestId: string | undefined,
  ts: string,
): string {
  const id = dataId && /^[a-z0-9]+$/i.test(dataId) ? dataId.toLowerCase() : dataId;
  return `${id ? `id:${id};` : ""}${requestId ? `request-id:${requestId};` : ""}ts:${ts};`;
}

/** Signs like Mercado Pago does (the local stand-in and tests use it). */
export function signNotification(
  secret: string,
  dataId: string,
  requestId: string,
  tsSeconds: number,
): string {
  const ts = String(tsSeconds);
  const v1 = createHmac("sha256", secret)
    .update(signatureManifest(dataId, requestId, ts))
    .digest("hex");
  return `ts=${ts},v1=${v1}`;
}
