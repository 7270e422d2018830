import type { Handler } from "@pasarela/bus";
import type { catalog } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { ClientesRepository } from "../db/repositories/clientes.js";
import { isRecordId } from "../domain/ids.js";

export function makeClienteDelete(
  clientes: ClientesRepository,
): Handler<typeof catalog.clienteDelete> {
  return async ({ id }, ctx) => {
    const deleted = isRecordId(id) && (await clientes.softDelete(ctx.accountId, id));
    if (!deleted) return fail(appError("CLIENTE_NOT_FOUND"));
    ctx.logger.info({ clienteId: id }, "cliente deleted");
    return ok({ id });
  };
}
