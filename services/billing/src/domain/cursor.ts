/** A keyset position in the usage history: newest first, ties broken by id. */
export interface UsageCursor {
  at: string;
  id: string;
}

export const encodeCursor = (c: UsageCursor): string =>
  Buffer.from(JSON.stringify([c.at, c.id])).toString("base64url");

/** The position, or undefined for anything this service did not write. */
export function decodeCursor(text: string): UsageCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      !Number.isNaN(Date.parse(value[0])) &&
      typeof value[1] === "string" &&
      /^[0-9a-f-]{36}$/.test(value[1])
    ) {
      return { at: value[0], id: value[1] };
    }
  } catch {
    // not base64url JSON
  }
  return undefined;
}
