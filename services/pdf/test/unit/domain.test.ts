import { describe, expect, it } from "vitest";
import { pdfFilename } from "../../src/domain/comprobante-ref.js";
import {
  condicionIva,
  decimal,
  fecha,
  importe,
  letraComprobante,
  nombreComprobante,
  porcentaje,
  tipoDocumento,
} from "@pasarela/formato";
import { conIva, enPesos, suma } from "../../src/domain/format.js";
import { isTokenShape, newToken, tokenHash } from "../../src/domain/token.js";

describe("pdf: how amounts, dates and codes are printed", () => {
  it("writes amounts the Argentine way from their decimal text, rounding half up once", () => {
    expect(importe("0")).toBe("0,00");
    expect(importe("1234567.891")).toBe("1.234.567,89");
    expect(importe("0.005")).toBe("0,01");
    expect(importe("99999999999.995")).toBe("100.000.000.000,00");
    // a double would print 1.0049999… and round down
    expect(importe("1.005")).toBe("1,01");
  });

  it("keeps a quantity's or price's own decimals, at least two", () => {
    expect(decimal("2")).toBe("2,00");
    expect(decimal("1.5")).toBe("1,50");
    expect(decimal("1250.123456")).toBe("1.250,123456");
    expect(decimal("0.001")).toBe("0,001");
  });

  it("rates, dates, amounts with VAT, pesos and sums", () => {
    expect(porcentaje("10.5")).toBe("10,5%");
    expect(porcentaje("21")).toBe("21%");
    expect(fecha("20250131")).toBe("31/01/2025");
    expect(conIva("12505.00", "21")).toBe("15131.05");
    expect(conIva("0.05", "10.5")).toBe("0.06");
    expect(enPesos("1452.00", "1050.25")).toBe("1524963.00");
    expect(suma(["0.10", "0.20"])).toBe("0.30");
    expect(suma([])).toBe("0.00");
  });

  it("names vouchers and their class as the authority prints them", () => {
    expect([1, 6, 11, 51].map(letraComprobante)).toEqual(["A", "B", "C", "M"]);
    expect(letraComprobante(49)).toBe("");
    expect(nombreComprobante(3)).toBe("Nota de Crédito");
    expect(nombreComprobante(207)).toBe("Nota de Débito Electrónica MiPyME (FCE)");
    expect(nombreComprobante(211)).toBe("Factura de Crédito Electrónica MiPyME (FCE)");
    expect(nombreComprobante(15)).toBe("Recibo");
    expect(nombreComprobante(999)).toBe("Comprobante tipo 999");
    expect(tipoDocumento(80)).toBe("CUIT");
    expect(tipoDocumento(96)).toBe("DNI");
    expect(condicionIva(6)).toBe("Responsable Monotributo");
  });

  it("names the file <cuit>_<tipo>_<ptoVta>-<nro>.pdf", () => {
    expect(
      pdfFilename({
        environment: "homologacion",
        representada: "20111111112",
        ptoVta: 3,
        cbteTipo: 6,
        cbteNro: 42,
      }),
    ).toBe("20111111112_006_00003-00000042.pdf");
  });

  it("makes link tokens of 256 random bits and keeps only their hash", () => {
    const tokens = new Set(Array.from({ length: 100 }, newToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(isTokenShape(token)).toBe(true);
    const [token = ""] = tokens;
    expect(tokenHash(token)).toHaveLength(32);
    expect(tokenHash(token).equals(tokenHash(`${token.slice(0, -1)}x`))).toBe(false);
    for (const bad of ["", "../../etc/passwd", `${token}=`, token.slice(1)]) {
      expect(isTokenShape(bad)).toBe(false);
    }
  });
});
