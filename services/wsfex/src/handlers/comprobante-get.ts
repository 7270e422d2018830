import type { Handler } from "@pasarela/bus";
import type { wsfex } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { WsfexAdapter } from "@pasarela/authority";

export function makeComprobanteGet(deps: {
  wsfex: WsfexAdapter;
}): Handler<typeof wsfex.comprobanteGet> {
  return async ({ environment, representada, ptoVta, cbteTipo, cbteNro }, ctx) => {
    const found = await deps.wsfex.comprobante(
      { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
      { ptoVta, cbteTipo, cbteNro },
    );
    if (!found.ok) return found;
    return ok(
      found.value
        ? { found: true as const, comprobante: { FEXGetCMPResult: found.value } }
        : { found: false as const, comprobante: null },
    );
  };
}
