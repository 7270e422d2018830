import type { Handler } from "@pasarela/bus";
import type { padron } from "@pasarela/contracts";
import type { PadronAdapter } from "../adapters/padron.js";

export function makeA10Get(deps: { padron: PadronAdapter }): Handler<typeof padron.a10Get> {
  return async ({ environment, representada, idPersona }, ctx) => {
    return deps.padron.a10(
      { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
      idPersona,
    );
  };
}
