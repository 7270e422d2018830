import { createLogger } from "@pasarela/telemetry";
import {
  makeVoucherAuthority,
  type VoucherAuthority,
} from "../../src/adapters/voucher-authority.js";
import type { WsfeAdapter } from "../../src/adapters/wsfe.js";

type WsfeCalls = Pick<WsfeAdapter, "ultimoAutorizado" | "solicitar" | "consultar" | "totXRequest">;

const notExpected = (name: string) => () => {
  throw new Error(`${name} was not expected in this test`);
};

/**
 * The issuance's authority over a scripted WSFEv1: the real dispatch (domestic types go to
 * WSFEv1, FCE one at a time, FECompTotXRequest asked once per environment), with any export
 * call failing the test.
 */
export function viaWsfe(wsfe: Partial<WsfeCalls>): VoucherAuthority {
  return makeVoucherAuthority({
    wsfe: {
      ultimoAutorizado: notExpected("FECompUltimoAutorizado"),
      solicitar: notExpected("FECAESolicitar"),
      consultar: notExpected("FECompConsultar"),
      totXRequest: notExpected("FECompTotXRequest"),
      ...wsfe,
    },
    wsfex: {
      ultimoComprobante: notExpected("FEXGetLast_CMP"),
      comprobante: notExpected("FEXGetCMP"),
      authorize: notExpected("FEXAuthorize"),
      ultimoId: notExpected("FEXGetLast_ID"),
    },
    ids: { take: notExpected("exportacion_ids"), seed: notExpected("exportacion_ids") },
    logger: createLogger({ service: "test", level: "silent" }),
  });
}
