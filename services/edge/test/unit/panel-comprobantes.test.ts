import type { wsfe } from "@pasarela/contracts";
import { describe, expect, it } from "vitest";
import { comprobantesTable, tipoSelect } from "../../src/panel/pages/comprobantes-views.js";

const item = (extra: Partial<wsfe.ComprobanteListItem>): wsfe.ComprobanteListItem => ({
  id: "00000000-0000-4000-8000-000000000001",
  state: "authorized",
  environment: "homologacion",
  representada: "20111111112",
  ptoVta: 3,
  cbteTipo: 6,
  cbteNro: 3,
  cbteFch: "20261126",
  receptor: { docTipo: 96, docNro: "30123456", razonSocial: "Ana Pérez" },
  impTotal: "102850.00",
  moneda: "PES",
  cae: "76123456789012",
  caeVencimiento: "20261206",
  tipoAutorizacion: "CAE",
  email: null,
  createdAt: "2026-11-26T20:53:00.000Z",
  ...extra,
});

/** The rows' text, tags and blank runs dropped. */
const rowsOf = (items: wsfe.ComprobanteListItem[]) =>
  comprobantesTable({ items, csrf: "t", cobro: () => "—" })
    .text.split("<tr>")
    .slice(2)
    .map((row) =>
      row
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    );

describe("panel: Comprobantes reads like the printed voucher", () => {
  it("names the voucher, writes money, dates and the receiver the Argentine way", () => {
    const [row = ""] = rowsOf([item({})]);
    expect(row).toContain("26/11/2026");
    expect(row).toContain("Factura B 00003-00000003");
    expect(row).toContain("20-11111111-2");
    expect(row).toContain("Ana Pérez DNI 30.123.456");
    expect(row).toContain("$ 102.850,00");
    expect(row).not.toMatch(/PES|\b96 30123456\b|\b6 ·/);
    const [final = ""] = rowsOf([
      item({ receptor: { docTipo: 99, docNro: "0", razonSocial: null }, moneda: "DOL" }),
    ]);
    expect(final).toContain("Consumidor final");
    expect(final).toContain("US$ 102.850,00");
  });

  it("marks a rejected attempt apart from the voucher authorized after it under its number", () => {
    const [authorized = "", attempt = ""] = rowsOf([
      item({}),
      item({
        id: "00000000-0000-4000-8000-000000000002",
        state: "rejected",
        cae: null,
        caeVencimiento: null,
        rechazo: [{ code: 10016, msg: "La fecha es anterior a la del último comprobante" }],
      }),
    ]);
    expect(authorized).toContain("Autorizado");
    expect(authorized).toContain("Antes, un intento rechazado con este número");
    expect(authorized).toContain("PDF");
    expect(attempt).toContain("Intento rechazado");
    expect(attempt).toContain("La fecha es anterior a la del último comprobante (10016)");
    expect(attempt).toContain("El número quedó para el comprobante autorizado después.");
    expect(attempt).not.toContain("PDF");
    expect(attempt).not.toContain("76123456789012");
  });

  it("says plainly that an attempt was not authorized when the authority gave no reason", () => {
    const [attempt = ""] = rowsOf([item({ state: "rejected", cae: null, rechazo: [] })]);
    expect(attempt).toContain("Intento rechazado La AFIP no lo autorizó.");
    expect(attempt).not.toContain("El número quedó");
  });

  it("badges a voucher issued under a CAEA and says where its informing stands", () => {
    const caea = {
      tipoAutorizacion: "CAEA" as const,
      cae: "37471234567890",
      caea: "37471234567890",
      caeVencimiento: "20261215",
      caeaVencimiento: "20261215",
    };
    const [cae = "", pendiente = "", informado = "", rechazado = ""] = rowsOf([
      item({}),
      item({ ...caea, cbteNro: 4, state: "caea_pendiente" }),
      item({ ...caea, cbteNro: 5, caeaInformadoAt: "2026-12-16T13:00:00.000Z" }),
      item({
        ...caea,
        cbteNro: 6,
        state: "caea_rechazado",
        rechazo: [{ code: 10016, msg: "El número no es correlativo" }],
      }),
    ]);
    expect(cae).not.toContain("CAEA");
    expect(pendiente).toContain("Pendiente de informar");
    expect(pendiente).toContain("CAEA 37471234567890");
    // held by the customer from its issuance: it prints and is e-mailed
    expect(pendiente).toContain("PDF");
    expect(informado).toContain("Autorizado");
    expect(informado).toContain("Informado el 16/12/2026 10:00");
    expect(rechazado).toContain("Rechazado al informar");
    expect(rechazado).toContain("El número no es correlativo (10016)");
    expect(rechazado).toContain("nota de crédito");
    expect(rechazado).not.toContain("PDF");
  });

  it("offers the voucher types by name", () => {
    const select = tipoSelect([1, 6, 11], "6").text;
    expect(select).toMatch(/<option value="6"\s+selected\s*>\s*Factura B\s*<\/option>/);
    expect(select).not.toMatch(/<option value="1"\s+selected/);
    expect(select).toContain("Factura A");
    expect(select).toContain("Factura C");
  });
});
