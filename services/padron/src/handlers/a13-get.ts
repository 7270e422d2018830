import type { Handler } from "@pasarela/bus";
import type { padron } from "@pasarela/contracts";
import type { PadronAdapter } from "../adapters/padron.js";

export function makeA13Get(deps: { padron: PadronAdapter }): Handler<typeof padron.a13Get> {
  return async ({ environment, representada, idPersona }, ctx) => {
    return deps.padron.a13(
      { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
      idPersona,
    );
  };
}
