import { bind, type Binding, type Bus } from "@pasarela/bus";
import { wsfe } from "@pasarela/contracts";
import type { WsfeAdapter } from "./adapters/wsfe.js";
import type { ComprobantesEmailRepository } from "./db/repositories/comprobantes-email.js";
import { makeComprobanteGet } from "./handlers/comprobante-get.js";
import { makeFacturaIssue, type FacturaIssueDeps } from "./handlers/factura-issue.js";
import { makeParametrosGet } from "./handlers/parametros-get.js";
import { makePointOfSaleResolver } from "./handlers/point-of-sale.js";
import { makeUltimoComprobanteLast } from "./handlers/ultimo-comprobante-last.js";

/** Wiring only: the WSFEv1 adapter, the repositories and handlers bound to their subjects. */
export function wsfeBindings(deps: {
  emails: ComprobantesEmailRepository;
  bus: Bus;
  wsfe: WsfeAdapter;
  issuance: Omit<FacturaIssueDeps, "bus" | "wsfe">;
}): Binding[] {
  const pointOfSale = makePointOfSaleResolver(deps.bus);
  return [
    bind(wsfe.ultimoComprobanteLast, makeUltimoComprobanteLast({ wsfe: deps.wsfe, pointOfSale })),
    bind(
      wsfe.comprobanteGet,
      makeComprobanteGet({ wsfe: deps.wsfe, pointOfSale, emails: deps.emails }),
    ),
    bind(wsfe.parametrosGet, makeParametrosGet({ wsfe: deps.wsfe })),
    bind(wsfe.facturaIssue, makeFacturaIssue({ ...deps.issuance, bus: deps.bus, wsfe: deps.wsfe })),
  ];
}
