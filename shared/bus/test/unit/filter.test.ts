import { billing, cobros, wsfe } from "@pasarela/contracts";
import { describe, expect, it } from "vitest";
import { filterOf } from "../../src/index.js";

describe("the subject a durable consumer of events filters on", () => {
  it("is the events' common prefix short of their last token, followed by >", () => {
    expect(filterOf([wsfe.comprobanteAutorizado, wsfe.comprobanteRechazado])).toBe(
      "evt.wsfe.comprobante.>",
    );
    expect(filterOf([billing.usoRegistrado])).toBe("evt.edge.uso.>");
    expect(filterOf([cobros.linkPagado])).toBe("evt.cobros.link.>");
    expect(filterOf([wsfe.comprobanteAutorizado, cobros.linkPagado])).toBe("evt.>");
  });
});
