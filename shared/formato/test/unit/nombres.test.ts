import { catalogue } from "@pasarela/errors";
import { describe, expect, it } from "vitest";
import {
  comprobante,
  condicionIva,
  documento,
  entorno,
  letraComprobante,
  mensajeDeCodigo,
  nombreComprobante,
  numeroComprobante,
  opcionesComprobante,
  receptor,
  servicioWeb,
  tipoComprobante,
  tipoDocumento,
} from "../../src/index.js";

describe("formato: vouchers by name", () => {
  it("names a voucher type with its letter", () => {
    expect(tipoComprobante(6)).toBe("Factura B");
    expect(tipoComprobante(1)).toBe("Factura A");
    expect(tipoComprobante(3)).toBe("Nota de Crédito A");
    expect(tipoComprobante(13)).toBe("Nota de Crédito C");
    expect(tipoComprobante(51)).toBe("Factura M");
    expect(tipoComprobante(201)).toBe("Factura de Crédito Electrónica MiPyME (FCE) A");
    expect(tipoComprobante(19)).toBe("Factura E");
    expect(tipoComprobante(20)).toBe("Nota de Débito E");
    expect(tipoComprobante(21)).toBe("Nota de Crédito E");
    expect(tipoComprobante(49)).toBe("Comprobante de Compra de Bienes Usados a Consumidor Final");
    expect(tipoComprobante(999)).toBe("Comprobante tipo 999");
    expect(nombreComprobante(15)).toBe("Recibo");
    expect(letraComprobante(49)).toBe("");
  });

  it("writes the whole voucher: type, letter, point of sale and number", () => {
    expect(numeroComprobante(3, 3)).toBe("00003-00000003");
    expect(comprobante({ cbteTipo: 6, ptoVta: 3, cbteNro: 3 })).toBe("Factura B 00003-00000003");
    expect(comprobante({ cbteTipo: 11, ptoVta: 12345, cbteNro: 99999999 })).toBe(
      "Factura C 12345-99999999",
    );
    expect(opcionesComprobante([1, 6])).toEqual([
      { value: 1, label: "Factura A" },
      { value: 6, label: "Factura B" },
    ]);
  });
});

describe("formato: receivers, environments and codes by name", () => {
  it("writes documents by type name and formatted number", () => {
    expect(documento(99, "0")).toBe("Consumidor final");
    expect(documento(96, "30123456")).toBe("DNI 30.123.456");
    expect(documento(96, "5123456")).toBe("DNI 5.123.456");
    expect(documento(80, "30000000007")).toBe("CUIT 30-00000000-7");
    expect(documento(86, "20111111112")).toBe("CUIL 20-11111111-2");
    expect(documento(87, "50000000016")).toBe("CDI 50-00000001-6");
    expect(documento(94, "AAA123456")).toBe("Pasaporte AAA123456");
    expect(documento(80, "123")).toBe("CUIT 123");
    expect(documento(42, "77")).toBe("Doc. tipo 42 77");
    expect(tipoDocumento(96)).toBe("DNI");
  });

  it("puts the customer's name before the document when known", () => {
    expect(receptor({ docTipo: 96, docNro: "30123456", razonSocial: "Ana Pérez" })).toBe(
      "Ana Pérez · DNI 30.123.456",
    );
    expect(receptor({ docTipo: 99, docNro: "0", razonSocial: null })).toBe("Consumidor final");
    expect(receptor({ docTipo: 80, docNro: "30000000007", razonSocial: "  " })).toBe(
      "CUIT 30-00000000-7",
    );
  });

  it("names VAT conditions, environments, web services and catalogue codes", () => {
    expect(condicionIva(6)).toBe("Responsable Monotributo");
    expect(condicionIva(99)).toBe("Condición 99");
    expect(entorno("homologacion")).toBe("Homologación");
    expect(entorno("produccion")).toBe("Producción");
    expect(entorno("otro")).toBe("otro");
    expect(servicioWeb("wsfe")).toBe("Factura electrónica (WSFEv1)");
    expect(servicioWeb("nuevo")).toBe("nuevo");
    expect(mensajeDeCodigo("SERVICE_NOT_DELEGATED")).toBe(catalogue.SERVICE_NOT_DELEGATED.message);
    expect(mensajeDeCodigo("SERVICE_NOT_DELEGATED")).toMatch(/[a-z]/);
    expect(mensajeDeCodigo("NO_SUCH_CODE")).toBeUndefined();
    expect(mensajeDeCodigo("toString")).toBeUndefined();
  });
});
