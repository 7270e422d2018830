import { randomUUID } from "node:crypto";
import type { Handler } from "@pasarela/bus";
import { documentoProblem, type catalog } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { ClientesRepository } from "../db/repositories/clientes.js";

export function makeClienteCreate(
  clientes: ClientesRepository,
): Handler<typeof catalog.clienteCreate> {
  return async (input, ctx) => {
    const problem = documentoProblem(input.docTipo, input.docNro);
    if (problem) return fail(problem);
    const created = await clientes.insert(ctx.accountId, randomUUID(), input);
    if (created === "duplicate") return fail(appError("CLIENTE_DUPLICATE"));
    ctx.logger.info({ clienteId: created.id }, "cliente created");
    return ok(created);
  };
}
