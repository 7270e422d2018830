import type { Handler } from "@pasarela/bus";
import type { catalog } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { ClientesRepository } from "../db/repositories/clientes.js";
import { isRecordId } from "../domain/ids.js";

export function makeClienteGet(clientes: ClientesRepository): Handler<typeof catalog.clienteGet> {
  return async ({ id }, ctx) => {
    const cliente = isRecordId(id) ? await clientes.find(ctx.accountId, id) : undefined;
    return cliente ? ok(cliente) : fail(appError("CLIENTE_NOT_FOUND"));
  };
}
