import type { Handler } from "@pasarela/bus";
import type { wsfex } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { WsfexAdapter } from "@pasarela/authority";

export function makeUltimoComprobanteLast(deps: {
  wsfex: WsfexAdapter;
}): Handler<typeof wsfex.ultimoComprobanteLast> {
  return async ({ environment, representada, ptoVta, cbteTipo }, ctx) => {
    const last = await deps.wsfex.ultimoComprobante(
      { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
      { ptoVta, cbteTipo },
    );
    return last.ok ? ok({ cbteNro: last.value, ptoVta, cbteTipo }) : last;
  };
}
