import type { Handler } from "@pasarela/bus";
import type { wsfe } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { WsfeAdapter } from "../adapters/wsfe.js";
import type { PointOfSaleResolver } from "./point-of-sale.js";

export function makeUltimoComprobanteLast(deps: {
  wsfe: WsfeAdapter;
  pointOfSale: PointOfSaleResolver;
}): Handler<typeof wsfe.ultimoComprobanteLast> {
  return async (request, ctx) => {
    const { environment, representada, cbteTipo } = request;
    const ptoVta = await deps.pointOfSale(ctx, request);
    if (!ptoVta.ok) return ptoVta;
    const last = await deps.wsfe.ultimoAutorizado(
      { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
      { ptoVta: ptoVta.value, cbteTipo },
    );
    if (!last.ok) return last;
    return ok({ cbteNro: last.value, ptoVta: ptoVta.value, cbteTipo });
  };
}
