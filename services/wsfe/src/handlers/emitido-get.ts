import type { Handler } from "@pasarela/bus";
import type { wsfe } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { ComprobantesRepository } from "../db/repositories/comprobantes.js";
import { emitidoOf } from "../domain/emitido.js";

/** All five fields and the account must match, else the one 404. */
export function makeEmitidoGet(deps: {
  comprobantes: Pick<ComprobantesRepository, "findIssued">;
}): Handler<typeof wsfe.emitidoGet> {
  return async (request, ctx) => {
    const stored = await deps.comprobantes.findIssued(ctx.accountId, {
      environment: request.environment,
      cuit: request.representada,
      ptoVta: request.ptoVta,
      cbteTipo: request.cbteTipo,
      cbteNro: request.cbteNro,
    });
    return stored ? ok(emitidoOf(stored)) : fail(appError("COMPROBANTE_NOT_FOUND"));
  };
}
