import { isRecordId } from "./ids.js";

/**
 * Keyset cursors naming the last record of the previous page by its id: a random UUID of the
 * caller's own account, so a cursor tells nothing about other accounts (no shared sequence,
 * no count, no time). Opaque to callers, so what a cursor holds can change without breaking
 * their code.
 */
const VERSION = "r1";
const ISSUED = new RegExp(`^${VERSION}:(.+)$`);

export function encodeCursor(id: string): string {
  return Buffer.from(`${VERSION}:${id}`).toString("base64url");
}

/** The id of the record after which the next page starts, or undefined for a cursor we never issued. */
export function decodeCursor(cursor: string): string | undefined {
  const id = ISSUED.exec(Buffer.from(cursor, "base64url").toString("utf8"))?.[1];
  return id !== undefined && isRecordId(id) ? id : undefined;
}
