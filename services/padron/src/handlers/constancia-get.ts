import type { Handler } from "@pasarela/bus";
import type { padron } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { PadronAdapter } from "../adapters/padron.js";
import { condicionIvaReceptorId } from "../domain/condicion-iva.js";

/** The constancia as the registry sent it, plus the VAT condition a voucher to it needs. */
export function makeConstanciaGet(deps: {
  padron: PadronAdapter;
}): Handler<typeof padron.constanciaGet> {
  return async ({ environment, representada, idPersona }, ctx) => {
    const record = await deps.padron.constancia(
      { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
      idPersona,
    );
    if (!record.ok) return record;
    return ok({ ...record.value, condicionIvaReceptorId: condicionIvaReceptorId(record.value) });
  };
}
