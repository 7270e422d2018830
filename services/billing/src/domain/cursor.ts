/** A keyset position in the usage history: newest first, ties broken by id. */
export interface UsageCursor {
  at: string;
  id: string;
}

/** The position as the page cursor holds it. */
export const usagePositionText = (c: UsageCursor): string => JSON.stringify([c.at, c.id]);

/** The position, or undefined for text this service did not write. */
export function parseUsagePosition(text: string): UsageCursor | undefined {
  try {
    const value: unknown = JSON.parse(text);
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
    // not JSON
  }
  return undefined;
}
