import type { Handler } from "@pasarela/bus";
import type { catalog } from "@pasarela/contracts";
import { appError, fail, invalidField, ok } from "@pasarela/errors";
import type { ClientesRepository } from "../db/repositories/clientes.js";
import { decodeCursor, encodeCursor } from "../domain/cursor.js";

export function makeClienteList(clientes: ClientesRepository): Handler<typeof catalog.clienteList> {
  return async ({ cursor, ...filter }, ctx) => {
    if (!ctx.accountId) return fail(appError("UNAUTHORIZED"));
    const after = cursor === undefined ? undefined : decodeCursor(cursor);
    if (cursor !== undefined && after === undefined) {
      return fail(
        invalidField("cursor", "no es un cursor de esta API: usá el nextCursor recibido"),
      );
    }
    const page = await clientes.list({ accountId: ctx.accountId, after, ...filter });
    return ok({
      items: page.items,
      nextCursor: page.continueAfter === null ? null : encodeCursor(page.continueAfter),
    });
  };
}
