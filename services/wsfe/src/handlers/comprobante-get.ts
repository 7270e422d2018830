import type { Handler } from "@pasarela/bus";
import type { wsfe } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { WsfeAdapter } from "../adapters/wsfe.js";
import type { ComprobantesEmailRepository } from "../db/repositories/comprobantes-email.js";
import { foundComprobante } from "../domain/comprobante.js";
import type { PointOfSaleResolver } from "./point-of-sale.js";

export function makeComprobanteGet(deps: {
  wsfe: WsfeAdapter;
  pointOfSale: PointOfSaleResolver;
  emails: Pick<ComprobantesEmailRepository, "find">;
}): Handler<typeof wsfe.comprobanteGet> {
  return async (request, ctx) => {
    const { environment, representada, cbteTipo, cbteNro } = request;
    const ptoVta = await deps.pointOfSale(ctx, request);
    if (!ptoVta.ok) return ptoVta;
    const voucher = await deps.wsfe.consultar(
      { accountId: ctx.accountId, cuit: representada, environment, deadline: ctx.deadline },
      { ptoVta: ptoVta.value, cbteTipo, cbteNro },
    );
    if (!voucher.ok) return voucher;
    if (!voucher.value) return ok({ found: false as const });
    // only vouchers that exist at the authority can carry the gateway's e-mail record
    const email = await deps.emails.find({
      accountId: ctx.accountId,
      environment,
      cuit: representada,
      ptoVta: ptoVta.value,
      cbteTipo,
      cbteNro,
    });
    return ok(foundComprobante(voucher.value, email));
  };
}
