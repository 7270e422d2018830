import type { Handler } from "@pasarela/bus";
import type { padron } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { PadronAdapter } from "../adapters/padron.js";

export function makeDocumentoList(deps: {
  padron: PadronAdapter;
}): Handler<typeof padron.documentoList> {
  return async ({ environment, representada, documento }, ctx) => {
    const ids = await deps.padron.documento(
      { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
      documento,
    );
    return ids.ok ? ok({ idPersonas: ids.value }) : ids;
  };
}
