import type { Handler } from "@pasarela/bus";
import { wsfex } from "@pasarela/contracts";
import { appError, fail, ok, unsupportedCbteTipo } from "@pasarela/errors";
import type { WsfexAdapter } from "../adapters/wsfex.js";

const accepted: readonly number[] = wsfex.WSFEX_CBTE_TIPOS;

export function makeUltimoComprobanteLast(deps: {
  wsfex: WsfexAdapter;
}): Handler<typeof wsfex.ultimoComprobanteLast> {
  return async ({ environment, representada, ptoVta, cbteTipo }, ctx) => {
    if (!accepted.includes(cbteTipo)) return fail(unsupportedCbteTipo(cbteTipo, accepted));
    if (!ctx.accountId) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const last = await deps.wsfex.ultimoComprobante(
      { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
      { ptoVta, cbteTipo },
    );
    return last.ok ? ok({ cbteNro: last.value, ptoVta, cbteTipo }) : last;
  };
}
