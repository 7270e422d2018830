/**
 * Keyset cursors over the insertion sequence: opaque to callers, so the order key can change
 * without breaking their code; a page never repeats or skips rows written meanwhile.
 */
const VERSION = "s1";
const ISSUED = new RegExp(`^${VERSION}:(\\d{1,18})$`);

export function encodeCursor(seq: string): string {
  return Buffer.from(`${VERSION}:${seq}`).toString("base64url");
}

/** The sequence after which the next page starts, or undefined for a cursor we never issued. */
export function decodeCursor(cursor: string): string | undefined {
  const match = ISSUED.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return match?.[1];
}
