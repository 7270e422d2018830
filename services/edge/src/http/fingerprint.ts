import { createHash } from "node:crypto";

/** JSON with object keys sorted at every level: equal bodies print the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The Idempotency-Key fingerprint of a request body: sha256 of the canonical JSON of
 * the body as validated, so key order, whitespace and equal amounts written differently
 * ("10.50" and 10.5: the schemas normalise decimals) are the same request.
 */
export function bodyFingerprint(body: unknown): string {
  return createHash("sha256").update(canonicalJson(body)).digest("hex");
}
