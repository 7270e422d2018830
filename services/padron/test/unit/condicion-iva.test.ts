import { describe, expect, it } from "vitest";
import { condicionIvaReceptorId, type TaxView } from "../../src/domain/condicion-iva.js";

const taxes = (...ids: number[]) => ids.map((id) => ({ id }));
const view = (over: Partial<TaxView>): TaxView => ({
  datosGenerales: {},
  regimenGeneral: null,
  monotributo: null,
  errorConstancia: null,
  errorMonotributo: null,
  errorRegimenGeneral: null,
  ...over,
});
const regimen = (...ids: number[]) => ({ impuestos: taxes(...ids) });
const mono = (categoria: unknown, ...ids: number[]) => ({ categoria, impuestos: taxes(...ids) });

describe("condicionIvaReceptorId from a constancia, with the condicion-iva-receptor ids", () => {
  it.each([
    [
      "IVA (30) with income tax: responsable inscripto",
      view({ regimenGeneral: regimen(10, 30) }),
      1,
    ],
    ["IVA EXENTO (32): exento", view({ regimenGeneral: regimen(32) }), 4],
    ["32 wins over 30, as in the rule's order", view({ regimenGeneral: regimen(30, 32) }), 4],
    [
      "IVA RESPONSABLE NO INSCRIPTO (33): no categorizado",
      view({ regimenGeneral: regimen(33) }),
      7,
    ],
    ["IVA NO ALCANZADO (34): no alcanzado", view({ regimenGeneral: regimen(34) }), 15],
    ["a monotributo category: monotributo", view({ monotributo: mono({ id: 4 }, 20) }), 6],
    ["tax 20 without a category object: monotributo", view({ monotributo: mono(null, 20) }), 6],
    ["tax 21 in the general regime: monotributo", view({ regimenGeneral: regimen(21) }), 6],
    ["general data and no tax: consumidor final", view({}), 5],
    ["only income tax (11): consumidor final", view({ regimenGeneral: regimen(11) }), 5],
  ])("%s", (_name, constancia, expected) => {
    expect(condicionIvaReceptorId(constancia)).toBe(expected);
  });

  it.each([
    ["the general regime withheld", view({ errorRegimenGeneral: { errores: ["baja de oficio"] } })],
    [
      "the monotributo block withheld",
      view({ errorMonotributo: { errores: ["no posee categoría"] } }),
    ],
    [
      "the whole constancia refused",
      view({ datosGenerales: null, errorConstancia: { errores: ["x"] } }),
    ],
    ["no general data at all", view({ datosGenerales: null })],
  ])("is not guessed (null) when %s and nothing decides", (_name, constancia) => {
    expect(condicionIvaReceptorId(constancia)).toBeNull();
  });

  it("still decides from a block that came when another was withheld", () => {
    expect(
      condicionIvaReceptorId(
        view({ regimenGeneral: regimen(30), errorMonotributo: { errores: ["x"] } }),
      ),
    ).toBe(1);
  });
});
