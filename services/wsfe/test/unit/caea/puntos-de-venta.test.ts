import { describe, expect, it } from "vitest";
import { caeaPointOfSaleProblem } from "../../../src/domain/caea/puntos-de-venta.js";

const rows = [
  { Nro: "3", EmisionTipo: "CAE - Ri Iva", Bloqueado: "N", FchBaja: "NULL" },
  { Nro: "90", EmisionTipo: "CAEA - Ri Iva", Bloqueado: "N", FchBaja: "NULL" },
  { Nro: "91", EmisionTipo: "CAEA - Ri Iva", Bloqueado: "S", FchBaja: "NULL" },
  { Nro: "92", EmisionTipo: "CAEA - Ri Iva", Bloqueado: "N", FchBaja: "20260101" },
];

describe("CAEA points of sale", () => {
  it("accepts points the authority lists enabled with EmisionTipo CAEA", () => {
    expect(caeaPointOfSaleProblem(rows, [90], "20261127")).toBeUndefined();
    expect(caeaPointOfSaleProblem(rows, [], "20261127")).toBeUndefined();
  });

  it("names the first point that is not one, and why", () => {
    expect(caeaPointOfSaleProblem(rows, [90, 3], "20261127")).toBe(
      'el punto de venta 3 es de emisión "CAE - Ri Iva" en la AFIP, no CAEA',
    );
    expect(caeaPointOfSaleProblem(rows, [7], "20261127")).toMatch(/punto de venta 7 no figura/);
    expect(caeaPointOfSaleProblem(rows, [91], "20261127")).toMatch(/91 está bloqueado/);
    expect(caeaPointOfSaleProblem(rows, [92], "20261127")).toMatch(
      /92 está bloqueado o dado de baja/,
    );
  });
});
