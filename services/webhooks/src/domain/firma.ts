import { createHmac } from "node:crypto";
import { secretoKey } from "./secreto.js";

/**
 * The `webhook-signature` header of one delivery: `v1,` and the base64 HMAC-SHA256 of
 * `id.timestamp.body` under each secret, space-separated, current first. Signing with the
 * rotated-out secret too lets a receiver that still holds it verify during the overlap.
 */
export function firma(
  secretos: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  const signed = `${id}.${timestamp}.${body}`;
  return secretos
    .map(
      (secreto) =>
        `v1,${createHmac("sha256", secretoKey(secreto)).update(signed).digest("base64")}`,
    )
    .join(" ");
}
