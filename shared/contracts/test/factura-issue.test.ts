import { describe, expect, it } from "vitest";
import { wsfe } from "../src/index.js";

const base = {
  environment: "homologacion",
  representada: "20111111112",
  cbteTipo: 1,
  concepto: 1,
  docTipo: 80,
  docNro: "30000000007",
  condicionIvaReceptorId: 1,
  items: [{ descripcion: "Servicio", cantidad: 1, precioUnitario: "100", alicuotaIva: 21 }],
};

const issuesOf = (body: unknown) => {
  const parsed = wsfe.facturaIssueRequestSchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join("."), i.message]);
};

describe("wsfe.factura.issue request", () => {
  it("normalises amounts sent as JSON numbers or decimal strings to canonical decimal text", () => {
    const parsed = wsfe.facturaIssueRequestSchema.parse({
      ...base,
      items: [
        { descripcion: "a", cantidad: 1.5, precioUnitario: "0010.50", alicuotaIva: "10.50" },
        { descripcion: "b", cantidad: "2.000", precioUnitario: 0.1, alicuotaIva: "exento" },
      ],
      tributos: [{ id: 99, descripcion: "x", baseImponible: 100, alicuota: "3", importe: "3.00" }],
      moneda: { id: "dol", cotizacion: 1050.25 },
    });
    expect(parsed.items.map((i) => [i.cantidad, i.precioUnitario, i.alicuotaIva])).toEqual([
      ["1.5", "10.5", "10.5"],
      ["2", "0.1", "exento"],
    ]);
    expect(parsed.tributos?.[0]).toMatchObject({ baseImponible: "100", importe: "3" });
    expect(parsed.moneda).toEqual({ id: "DOL", cotizacion: "1050.25" });
    // the edge and wsfe both parse the same body: the second parse changes nothing
    expect(wsfe.facturaIssueRequestSchema.parse(parsed)).toEqual(parsed);
  });

  it("takes the consumidor final as docTipo 99 with docNro 0, number or text", () => {
    for (const docNro of [0, "0", "000"]) {
      const parsed = wsfe.facturaIssueRequestSchema.parse({ ...base, docTipo: 99, docNro });
      expect(parsed.docNro).toBe("0");
    }
  });

  it.each([
    ["cantidad", { cantidad: 0 }, "items.0.cantidad", "mayor que 0"],
    ["cantidad", { cantidad: "1.1234567" }, "items.0.cantidad", "6 decimales"],
    ["cantidad", { cantidad: 1e-7 }, "items.0.cantidad", "6 decimales"],
    ["precioUnitario", { precioUnitario: -1 }, "items.0.precioUnitario", "no negativo"],
    ["precioUnitario", { precioUnitario: "1e3" }, "items.0.precioUnitario", "no negativo"],
    ["precioUnitario", { precioUnitario: 1e21 }, "items.0.precioUnitario", "12 dígitos"],
    ["precioUnitario", { precioUnitario: true }, "items.0.precioUnitario", "número decimal"],
    ["alicuotaIva", { alicuotaIva: "veintiuno" }, "items.0.alicuotaIva", "no_gravado"],
    ["bonificacion", { bonificacion: "-5" }, "items.0.bonificacion", "no negativo"],
  ])("refuses a malformed %s naming the field", (_name, change, field, words) => {
    const issues = issuesOf({ ...base, items: [{ ...base.items[0], ...change }] });
    expect(issues).toHaveLength(1);
    expect(issues[0]?.[0]).toBe(field);
    expect(issues[0]?.[1]).toContain(words);
  });

  it("refuses impossible dates and unknown fields", () => {
    expect(issuesOf({ ...base, cbteFch: "20250230" })[0]?.[0]).toBe("cbteFch");
    expect(issuesOf({ ...base, fchVtoPago: "2025-01-31" })[0]?.[0]).toBe("fchVtoPago");
    expect(issuesOf({ ...base, cbteNro: 5 })).toHaveLength(1);
    expect(issuesOf({ ...base, items: [{ ...base.items[0], iva: 21 }] })).toHaveLength(1);
  });

  it("accepts an empty item list: no items is the 422 of the totals rules, not a malformed body", () => {
    expect(issuesOf({ ...base, items: [] })).toEqual([]);
    expect(issuesOf({ ...base, items: undefined })[0]).toEqual(["items", "es obligatorio"]);
  });

  it("keeps a rate outside the accepted list for the totals rules to answer (422)", () => {
    const parsed = wsfe.facturaIssueRequestSchema.parse({
      ...base,
      items: [{ ...base.items[0], alicuotaIva: 19 }],
    });
    expect(parsed.items[0]?.alicuotaIva).toBe("19");
  });

  it("checks the fce block's fields", () => {
    const issues = issuesOf({
      ...base,
      fce: { cbu: "123", alias: "a b", opcionTransferencia: "XYZ", anulacion: "S" },
    });
    expect(issues.map(([field]) => field)).toEqual([
      "fce.cbu",
      "fce.alias",
      "fce.opcionTransferencia",
      "fce.anulacion",
    ]);
  });

  it("bounds the Idempotency-Key to 1–255 characters, and only over NATS", () => {
    expect(issuesOf({ ...base, idempotencyKey: "" })[0]?.[0]).toBe("idempotencyKey");
    expect(issuesOf({ ...base, idempotencyKey: "k".repeat(256) })[0]?.[0]).toBe("idempotencyKey");
    expect(issuesOf({ ...base, idempotencyKey: "pedido-1" })).toEqual([]);
    expect(wsfe.facturaBodySchema.safeParse({ ...base, idempotencyKey: "x" }).success).toBe(false);
  });
});

describe("wsfe.factura.issue reply", () => {
  it("crosses NATS with two-decimal text and answers HTTP with the same amounts as numbers", () => {
    const reply = wsfe.facturaIssueReplySchema.parse({
      resultado: "A",
      cae: "71263951827464",
      caeVencimiento: "20250210",
      cbteNro: 7,
      ptoVta: 3,
      cbteTipo: 1,
      cbteFch: "20250131",
      impTotal: "1331.10",
      impNeto: "1100.00",
      impIVA: "231.10",
      impTrib: "0.00",
      impTotConc: "0.00",
      impOpEx: "0.00",
      moneda: { id: "PES", cotizacion: "1", mismaMonedaExtranjera: false },
      observaciones: [],
      qr: "https://www.afip.gob.ar/fe/qr/?p=e30=",
    });
    const http = wsfe.facturaHttpReply(reply);
    expect(http).toMatchObject({ impTotal: 1331.1, impNeto: 1100, impIVA: 231.1, impTrib: 0 });
    expect(http.moneda.cotizacion).toBe(1);
    expect(wsfe.facturaHttpReplySchema.parse(http)).toEqual(http);
    expect(wsfe.facturaIssueReplySchema.safeParse({ ...reply, impTotal: "1331.1" }).success).toBe(
      false,
    );
  });
});
