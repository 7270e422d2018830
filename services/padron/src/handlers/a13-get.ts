import type { Handler } from "@pasarela/bus";
import type { padron } from "@pasarela/contracts";
import { appError, fail } from "@pasarela/errors";
import type { PadronAdapter } from "../adapters/padron.js";

export function makeA13Get(deps: { padron: PadronAdapter }): Handler<typeof padron.a13Get> {
  return async ({ environment, representada, idPersona }, ctx) => {
    if (!ctx.accountId) return fail(appError("REPRESENTADA_NOT_FOUND"));
    return deps.padron.a13(
      { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
      idPersona,
    );
  };
}
