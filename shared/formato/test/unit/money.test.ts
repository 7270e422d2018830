import { describe, expect, it } from "vitest";
import {
  decimal,
  dinero,
  importe,
  nombreMoneda,
  porcentaje,
  signoMoneda,
} from "../../src/index.js";

describe("formato: money the Argentine way, from decimal text", () => {
  it("writes amounts with dots and a comma, rounding half up once", () => {
    expect(importe("0")).toBe("0,00");
    expect(importe("1234567.891")).toBe("1.234.567,89");
    expect(importe("0.005")).toBe("0,01");
    expect(importe("99999999999.995")).toBe("100.000.000.000,00");
    // a double would hold 1.00499999… and round down
    expect(importe("1.005")).toBe("1,01");
  });

  it("keeps the sign of a negative amount and never signs a zero", () => {
    expect(importe("-1234.5")).toBe("-1.234,50");
    expect(importe("-0.001")).toBe("0,00");
    expect(importe("-0")).toBe("0,00");
    expect(dinero("-1500", "PES")).toBe("-$ 1.500,00");
    expect(dinero("-0.004", "DOL")).toBe("US$ 0,00");
  });

  it("puts the currency's sign, or its id, before the amount", () => {
    expect(dinero("102850", "PES")).toBe("$ 102.850,00");
    expect(dinero("9000.00")).toBe("$ 9.000,00");
    expect(dinero("1500", "DOL")).toBe("US$ 1.500,00");
    expect(dinero("20", "060")).toBe("€ 20,00");
    expect(dinero("1500", "EUR")).toBe("EUR 1.500,00");
    expect(dinero("1500", "012")).toBe("012 1.500,00");
    expect(dinero("0", "PES")).toBe("$ 0,00");
    expect(dinero("123456789012345.67", "PES")).toBe("$ 123.456.789.012.345,67");
    expect(signoMoneda("DOL")).toBe("US$");
    expect(nombreMoneda("DOL")).toBe("Dólar Estadounidense");
    expect(nombreMoneda("XYZ")).toBe("XYZ");
  });

  it("keeps a quantity's or price's own decimals, at least two and at most six", () => {
    expect(decimal("2")).toBe("2,00");
    expect(decimal("1.5")).toBe("1,50");
    expect(decimal("1250.123456")).toBe("1.250,123456");
    expect(decimal("0.000001")).toBe("0,000001");
    expect(decimal("0.001")).toBe("0,001");
    expect(decimal("-3.25")).toBe("-3,25");
  });

  it("writes rates as people do", () => {
    expect(porcentaje("10.5")).toBe("10,5%");
    expect(porcentaje("21")).toBe("21%");
    expect(porcentaje("0")).toBe("0%");
  });
});
