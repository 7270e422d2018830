import { describe, expect, it } from "vitest";
import { documentoProblem, isValidCuit } from "../../src/index.js";

const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

describe("CUIT check digit", () => {
  it.each(["20111111112", "30000000007", "33693450239", "23000000000", "20267565393"])(
    "accepts %s",
    (cuit) => expect(isValidCuit(cuit)).toBe(true),
  );

  it.each(["20111111113", "2011111111", "201111111120", "2011111111a", "30000000008"])(
    "refuses %s",
    (cuit) => expect(isValidCuit(cuit)).toBe(false),
  );

  it("refuses every number whose check digit would be 10", () => {
    const base = Array.from({ length: 1000 }, (_, i) => `2000000${String(i).padStart(3, "0")}`);
    const ten = base.find(
      (b) => 11 - ([...b].reduce((s, d, i) => s + Number(d) * WEIGHTS[i]!, 0) % 11) === 10,
    );
    // without one the loop below would test "undefined0"… and pass
    expect(ten).toBeDefined();
    for (let d = 0; d <= 9; d++) expect(isValidCuit(`${ten}${d}`)).toBe(false);
  });
});

describe("docTipo and docNro together", () => {
  it("checks the digit only for CUIT and CUIL, naming docNro", () => {
    expect(documentoProblem(80, "20111111113")?.message).toBe(
      "El campo docNro no es una CUIT válida: deben ser 11 dígitos con dígito verificador correcto",
    );
    expect(documentoProblem(86, "123")?.message).toContain("CUIL");
    expect(documentoProblem(80, "20111111112")).toBeUndefined();
    expect(documentoProblem(96, "12345678")).toBeUndefined();
    expect(documentoProblem(99, "0")).toBeUndefined();
  });
});
