import type { HandlerContext } from "@pasarela/bus";
import { appError, fail, invalidField, ok, type Result } from "@pasarela/errors";
import type { KeysetPage, KeysetQuery } from "../db/repositories/keyset.js";
import { decodeCursor, encodeCursor } from "../domain/cursor.js";

// Same answer for a cursor that was never issued and one of another account or list: nothing
// tells whether the record it names exists elsewhere.
const foreignCursor = () =>
  fail(invalidField("cursor", "no es un cursor de esta API: usá el nextCursor recibido"));

/**
 * A list subject over a repository's `list`: the filters pass through, the cursor is decoded on
 * the way in and the next one encoded on the way out, so only the repository knows what a page
 * holds.
 */
export function makeList<Filter extends { cursor?: string | undefined }, T>(repository: {
  list(query: KeysetQuery<Filter>): Promise<KeysetPage<T> | undefined>;
}) {
  return async (
    { cursor, ...filter }: Filter,
    ctx: HandlerContext,
  ): Promise<Result<{ items: T[]; nextCursor: string | null }>> => {
    if (!ctx.accountId) return fail(appError("UNAUTHORIZED"));
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    if (cursor !== undefined && after === undefined) return foreignCursor();
    const page = await repository.list({ ...filter, accountId: ctx.accountId, after });
    if (!page) return foreignCursor();
    return ok({
      items: page.items,
      nextCursor: page.continueAfter === null ? null : encodeCursor(page.continueAfter),
    });
  };
}
