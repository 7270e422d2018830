import { describe, expect, it } from "vitest";
import { idiomaDe, nombrePais, tipoExportacion, unidadExportacion } from "../../src/index.js";

describe("formato: what an export voucher names by code", () => {
  it("reads the authority's language codes, Spanish for any other", () => {
    expect([1, 2, 3].map(idiomaDe)).toEqual(["es", "en", "pt"]);
    expect(idiomaDe(4)).toBe("es");
    expect(idiomaDe(undefined)).toBe("es");
  });

  it("names destination countries in each language, the code of one it does not know", () => {
    expect(nombrePais(212)).toBe("Estados Unidos");
    expect(nombrePais(212, "en")).toBe("United States");
    expect(nombrePais(225, "pt")).toBe("Uruguai");
    expect(nombrePais(438, "es")).toBe("Alemania");
    expect(nombrePais(999, "en")).toBe("Country 999");
    expect(nombrePais(999)).toBe("País 999");
  });

  it("names units by the authority's code given as text; other text is shown as it is", () => {
    expect(unidadExportacion("7")).toBe("unidades");
    expect(unidadExportacion("7", "en")).toBe("units");
    expect(unidadExportacion("1", "pt")).toBe("quilogramas");
    expect(unidadExportacion("99", "en")).toBe("discount");
    expect(unidadExportacion("0")).toBe("");
    expect(unidadExportacion("12")).toBe("12");
    expect(unidadExportacion("caja")).toBe("caja");
    expect(unidadExportacion(undefined)).toBe("");
  });

  it("names what is exported", () => {
    expect(tipoExportacion(1)).toBe("Exportación definitiva de bienes");
    expect(tipoExportacion(2, "en")).toBe("Services");
    expect(tipoExportacion(4, "pt")).toBe("Outros");
    expect(tipoExportacion(3)).toBe("3");
  });
});
