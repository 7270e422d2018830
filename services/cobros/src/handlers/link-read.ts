import type { Handler } from "@pasarela/bus";
import type { cobros } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { LinksRepository } from "../db/repositories/links.js";

/** `cobros.link.get`: unknown, malformed and another account's ids answer the same 404. */
export function makeLinkGet(deps: {
  links: Pick<LinksRepository, "find">;
}): Handler<typeof cobros.linkGet> {
  return async (request, ctx) => {
    const link = await deps.links.find(ctx.accountId, request.id);
    return link ? ok(link.view) : fail(appError("LINK_COBRO_NOT_FOUND"));
  };
}

/** `cobros.link.list`: the account's links, newest first. */
export function makeLinkList(deps: {
  links: Pick<LinksRepository, "list">;
}): Handler<typeof cobros.linkList> {
  return async (request, ctx) => {
    const links = await deps.links.list(ctx.accountId, request);
    return ok({ items: links.map((l) => l.view) });
  };
}
