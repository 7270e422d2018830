import type { Handler } from "@pasarela/bus";
import { wsfe } from "@pasarela/contracts";
import { fail, invalidCursor, ok } from "@pasarela/errors";
import type { PageCursors } from "@pasarela/sealing";
import type { EmisionesRepository } from "../db/repositories/emisiones.js";
import { listadoPositionText, parseListadoPosition } from "../domain/listado.js";
import { emisionView } from "./emision-enqueue.js";

/**
 * `wsfe.emision.list`: the account's asynchronous issuances, newest first, one more row read
 * to know if a page follows. The cursor holds the last row's position, sealed to the account,
 * this list and its filters.
 */
export function makeEmisionList(deps: {
  emisiones: Pick<EmisionesRepository, "list">;
  cursors: PageCursors;
}): Handler<typeof wsfe.emisionList> {
  return async ({ limit, cursor, ...filters }, ctx) => {
    const scope = { list: wsfe.emisionList.subject, accountId: ctx.accountId, filters };
    const opened = cursor === undefined ? undefined : deps.cursors.read(scope, cursor);
    const after = opened === undefined ? undefined : parseListadoPosition(opened);
    if (cursor !== undefined && !after) return fail(invalidCursor());
    const rows = await deps.emisiones.list({
      ...filters,
      accountId: ctx.accountId,
      after,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return ok({
      items: page.map(emisionView),
      nextCursor:
        rows.length > limit && last
          ? deps.cursors.issue(
              scope,
              listadoPositionText({ createdAt: last.created_at_key, id: last.id }),
            )
          : null,
    });
  };
}
