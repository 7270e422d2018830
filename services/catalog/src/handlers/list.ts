import type { AccountContext } from "@pasarela/bus";
import { fail, invalidCursor, ok, type Result } from "@pasarela/errors";
import type { PageCursors } from "@pasarela/sealing";
import type { KeysetPage, KeysetQuery } from "../db/repositories/keyset.js";
import { isRecordId } from "../domain/ids.js";

/**
 * A list subject over a repository's `list`: the filters pass through, the cursor is opened on
 * the way in (it holds the id of the last record of the previous page, sealed to the account,
 * the list and its filters) and the next one sealed on the way out, so only the repository
 * knows what a page holds.
 */
export function makeList<Filter extends { cursor?: string | undefined; limit: number }, T>(
  list: string,
  cursors: PageCursors,
  repository: { list(query: KeysetQuery<Filter>): Promise<KeysetPage<T> | undefined> },
) {
  return async (
    request: Filter,
    ctx: AccountContext,
  ): Promise<Result<{ items: T[]; nextCursor: string | null }>> => {
    const { cursor, ...query } = request;
    const { limit: _limit, ...filters } = query;
    const scope = { list, accountId: ctx.accountId, filters };
    const after = cursor === undefined ? undefined : cursors.read(scope, cursor);
    if (cursor !== undefined && (after === undefined || !isRecordId(after))) {
      return fail(invalidCursor());
    }
    const page = await repository.list({ ...query, accountId: ctx.accountId, after });
    // sealed to this account, the cursor names one of its records: only a row removed from
    // the database lands here
    if (!page) return fail(invalidCursor());
    return ok({
      items: page.items,
      nextCursor: page.continueAfter === null ? null : cursors.issue(scope, page.continueAfter),
    });
  };
}
