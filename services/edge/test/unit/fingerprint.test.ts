import { wsfe } from "@pasarela/contracts";
import { describe, expect, it } from "vitest";
import { bodyFingerprint } from "../../src/http/fingerprint.js";

const parse = (body: unknown) => wsfe.facturaBodySchema.parse(body);
const body = {
  environment: "homologacion",
  representada: "20111111112",
  cbteTipo: 11,
  concepto: 1,
  docTipo: 99,
  docNro: "0",
  condicionIvaReceptorId: 5,
  items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1000.50", alicuotaIva: 0 }],
};

describe("the Idempotency-Key fingerprint", () => {
  it("is the same for the same request written differently", () => {
    const { items, ...rest } = body;
    const reordered = {
      items: [{ ...items[0], precioUnitario: 1000.5, cantidad: "1.0" }],
      ...rest,
    };
    expect(bodyFingerprint(parse(reordered))).toBe(bodyFingerprint(parse(body)));
  });

  it("differs for another amount or another receiver", () => {
    const base = bodyFingerprint(parse(body));
    expect(
      bodyFingerprint(parse({ ...body, items: [{ ...body.items[0], precioUnitario: "1000.51" }] })),
    ).not.toBe(base);
    expect(bodyFingerprint(parse({ ...body, docTipo: 96, docNro: "30111222" }))).not.toBe(base);
  });
});
