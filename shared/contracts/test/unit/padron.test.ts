import { describe, expect, it } from "vitest";
import { padron, type padron as Padron } from "../../src/index.js";

type Constancia = Padron.Constancia;

const domicilio = (over: Partial<Padron.Domicilio>): Padron.Domicilio => ({
  tipoDomicilio: "FISCAL",
  direccion: null,
  calle: null,
  numero: null,
  piso: null,
  oficinaDptoLocal: null,
  manzana: null,
  sector: null,
  torre: null,
  localidad: null,
  codigoPostal: null,
  idProvincia: null,
  descripcionProvincia: null,
  datoAdicional: null,
  tipoDatoAdicional: null,
  estadoDomicilio: null,
  ...over,
});

const constancia = (
  general: Partial<NonNullable<Constancia["datosGenerales"]>> | null,
): Constancia => ({
  idPersona: "20172543597",
  datosGenerales:
    general === null
      ? null
      : {
          tipoPersona: "FISICA",
          tipoClave: "CUIT",
          estadoClave: "ACTIVO",
          apellido: null,
          nombre: null,
          razonSocial: null,
          esSucesion: null,
          mesCierre: null,
          fechaContratoSocial: null,
          fechaFallecimiento: null,
          domicilioFiscal: null,
          dependencia: null,
          caracterizaciones: [],
          ...general,
        },
  regimenGeneral: null,
  monotributo: null,
  errorConstancia: null,
  errorMonotributo: null,
  errorRegimenGeneral: null,
  condicionIvaReceptorId: 1,
});

describe("padron request fields", () => {
  it("takes idPersona as text or number and answers 11-digit text", () => {
    expect(padron.idPersonaSchema.parse("30712345671")).toBe("30712345671");
    expect(padron.idPersonaSchema.parse(30712345671)).toBe("30712345671");
  });

  it.each([["30712345672"], ["3071234567"], ["30-71234567-1"], [1.5], [-1], [null], [undefined]])(
    "refuses %s naming the rule",
    (value) => {
      const parsed = padron.idPersonaSchema.safeParse(value);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/CUIT o CUIL de 11 dígitos|obligatorio/);
    },
  );

  it("reads a documento as digits without leading zeros", () => {
    expect(padron.documentoSchema.parse("025111222")).toBe("25111222");
    expect(padron.documentoSchema.parse(25111222)).toBe("25111222");
    expect(padron.documentoSchema.safeParse("25.111.222").success).toBe(false);
  });
});

describe("a customer from the constancia (autocompletar)", () => {
  it("names a company by its razón social and a person by surname and names", () => {
    expect(
      padron.razonSocialDeConstancia(constancia({ razonSocial: "DISTRIBUIDORA S.R.L." })),
    ).toBe("DISTRIBUIDORA S.R.L.");
    expect(
      padron.razonSocialDeConstancia(constancia({ apellido: "PEREZ", nombre: "JUAN CARLOS" })),
    ).toBe("PEREZ JUAN CARLOS");
    expect(padron.razonSocialDeConstancia(constancia(null))).toBeNull();
  });

  it("writes the fiscal address in one line, the province left out when it is the town", () => {
    expect(
      padron.domicilioEnUnaLinea(
        domicilio({
          direccion: "SAN MARTIN 455",
          localidad: "ROSARIO",
          codigoPostal: "2000",
          descripcionProvincia: "SANTA FE",
        }),
      ),
    ).toBe("SAN MARTIN 455, ROSARIO (2000), SANTA FE");
    expect(
      padron.domicilioEnUnaLinea(
        domicilio({
          direccion: "PERU 1010",
          localidad: "CIUDAD AUTONOMA BUENOS AIRES",
          codigoPostal: "1068",
          descripcionProvincia: "CIUDAD AUTONOMA BUENOS AIRES",
        }),
      ),
    ).toBe("PERU 1010, CIUDAD AUTONOMA BUENOS AIRES (1068)");
    expect(padron.domicilioEnUnaLinea(domicilio({ localidad: "ROSARIO" }))).toBeNull();
    expect(padron.domicilioEnUnaLinea(domicilio({ direccion: "X".repeat(400) }))?.length).toBe(300);
  });

  it("takes the derived condicionIvaReceptorId as is", () => {
    expect(
      padron.clienteDesdeConstancia({
        ...constancia({ razonSocial: "A" }),
        condicionIvaReceptorId: null,
      }),
    ).toEqual({ razonSocial: "A", domicilio: null, condicionIvaReceptorId: null });
  });
});
