import type { Handler } from "@pasarela/bus";
import { documentoProblem, type catalog } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { ClientesRepository } from "../db/repositories/clientes.js";
import { isRecordId } from "../domain/ids.js";

export function makeClienteUpdate(
  clientes: ClientesRepository,
): Handler<typeof catalog.clienteUpdate> {
  return async ({ id, changes }, ctx) => {
    if (!isRecordId(id)) return fail(appError("CLIENTE_NOT_FOUND"));
    const outcome = await clientes.update(ctx.accountId, id, changes, documentoProblem);
    switch (outcome.kind) {
      case "updated":
        return ok(outcome.cliente);
      case "not_found":
        return fail(appError("CLIENTE_NOT_FOUND"));
      case "duplicate":
        return fail(appError("CLIENTE_DUPLICATE"));
      case "refused":
        return fail(outcome.error);
    }
  };
}
