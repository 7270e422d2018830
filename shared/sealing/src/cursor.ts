import { makeSealer } from "./sealer.js";

/**
 * What a page belongs to: the list (its bus subject), the account reading it and the filters
 * that define it. A cursor continues only the list it came from.
 */
export interface CursorScope {
  readonly list: string;
  readonly accountId: string;
  /** the request's filters, paging fields aside (`limit` may change between pages) */
  readonly filters: Readonly<Record<string, unknown>>;
}

export interface PageCursors {
  /** The opaque `nextCursor` for continuing `scope` after `position`. */
  issue(scope: CursorScope, position: string): string;
  /**
   * The position a cursor holds, or undefined when it was not issued for exactly this scope:
   * another account's, another list's, the same list under other filters, altered, or never
   * issued at all. Callers answer all of them alike, so nothing tells them apart.
   */
  read(scope: CursorScope, cursor: string): string | undefined;
}

/** Keys sorted and undefined left out, so equal filters always give the same text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

const contextOf = (scope: CursorScope): string =>
  JSON.stringify(["page-cursor", scope.list, scope.accountId, canonical(scope.filters)]);

/**
 * Page cursors sealed with AES-256-GCM under a server key, the scope as associated data: the
 * position (a timestamp, a record id) stays unreadable, and a cursor opens only under the
 * account, list and filters it was issued for. Every instance holding the key reads any
 * instance's cursors.
 */
export function makePageCursors(keyBase64: string): PageCursors {
  const sealer = makeSealer(keyBase64);
  return {
    issue: (scope, position) =>
      Buffer.from(sealer.seal(position, contextOf(scope))).toString("base64url"),
    read(scope, cursor) {
      const bytes = Buffer.from(cursor, "base64url");
      // base64url decoding skips characters outside the alphabet and ignores spare bits:
      // only the exact text issued is accepted
      if (bytes.toString("base64url") !== cursor) return undefined;
      try {
        return sealer.open(bytes, contextOf(scope));
      } catch {
        return undefined;
      }
    },
  };
}
