import { z } from "zod";

/**
 * The registry's records in one camelCase shape for the three services. Every field the
 * authority may leave out is present and null when it did; lists are empty. Dates are
 * yyyy-mm-dd (the registry sends noon of that day as an xs:dateTime).
 */
const text = z.string().nullable();
const int = z.number().int().nullable();
const date = z.string().nullable().describe("yyyy-mm-dd");

/** An address: A13 fills every part; A10 and the constancia the ones they have. */
export const domicilioSchema = z
  .object({
    tipoDomicilio: text.describe("FISCAL, LEGAL/REAL, …"),
    direccion: text.describe("Calle y número en una línea, como la imprime el padrón"),
    calle: text,
    numero: int,
    piso: text,
    oficinaDptoLocal: text,
    manzana: text,
    sector: text,
    torre: text,
    localidad: text,
    codigoPostal: text,
    idProvincia: int.describe("Código de provincia de la AFIP: 0 es CABA"),
    descripcionProvincia: text,
    datoAdicional: text,
    tipoDatoAdicional: text,
    estadoDomicilio: text,
  })
  .strict();
export type Domicilio = z.output<typeof domicilioSchema>;

export const actividadSchema = z
  .object({
    id: z.number().int().describe("Código de actividad (nomenclador F-883)"),
    descripcion: text,
    orden: int.describe("1 es la actividad principal"),
    periodo: int.describe("aaaamm desde el que la desarrolla"),
    nomenclador: int,
  })
  .strict();
export type Actividad = z.output<typeof actividadSchema>;

export const impuestoSchema = z
  .object({ id: z.number().int(), descripcion: text, periodo: int })
  .strict();

export const categoriaSchema = z
  .object({ id: int, descripcion: text, idImpuesto: int, periodo: int })
  .strict();

export const dependenciaSchema = z.object({ id: int, descripcion: text }).strict();

/** The identity every registry record starts with. */
const identity = {
  idPersona: z.string().describe("CUIT/CUIL consultada, 11 dígitos"),
  tipoPersona: text.describe("FISICA o JURIDICA"),
  tipoClave: text.describe("CUIT, CUIL o CDI"),
  estadoClave: text.describe("ACTIVO o INACTIVO"),
  apellido: text,
  nombre: text,
  razonSocial: text,
};

/** `/api/padron/a13` (getPersona of ws_sr_padron_a13). */
export const personaA13Schema = z
  .object({
    ...identity,
    documento: z
      .object({ tipo: text.describe("DNI, LC, LE, …"), numero: z.string() })
      .strict()
      .nullable(),
    fechaNacimiento: date,
    fechaFallecimiento: date,
    fechaContratoSocial: date,
    formaJuridica: text,
    mesCierre: int,
    clavesInactivasAsociadas: z
      .array(z.string())
      .describe("Claves anteriores de la misma persona, hoy inactivas"),
    domicilios: z.array(domicilioSchema),
    actividadPrincipal: actividadSchema.nullable(),
  })
  .strict();
export type PersonaA13 = z.output<typeof personaA13Schema>;

/** `/api/padron/a10` (getPersona of ws_sr_padron_a10). */
export const personaA10Schema = z
  .object({
    ...identity,
    documento: z.object({ tipo: text, numero: z.string() }).strict().nullable(),
    clavesInactivasAsociadas: z.array(z.string()),
    dependencia: dependenciaSchema.nullable(),
    domicilios: z.array(domicilioSchema),
    actividadPrincipal: actividadSchema.nullable(),
  })
  .strict();
export type PersonaA10 = z.output<typeof personaA10Schema>;

const partialError = z
  .object({ errores: z.array(z.string()), mensaje: text })
  .strict()
  .nullable();

/**
 * `/api/padron/constancia` (getPersona_v2 of ws_sr_constancia_inscripcion). The registry's
 * partial-data errors are data: a block it withholds is null and its error says why.
 */
export const constanciaSchema = z
  .object({
    idPersona: z.string(),
    datosGenerales: z
      .object({
        tipoPersona: text,
        tipoClave: text,
        estadoClave: text,
        apellido: text,
        nombre: text,
        razonSocial: text,
        esSucesion: z.boolean().nullable(),
        mesCierre: int,
        fechaContratoSocial: date,
        fechaFallecimiento: date,
        domicilioFiscal: domicilioSchema.nullable(),
        dependencia: dependenciaSchema.nullable(),
        caracterizaciones: z.array(z.object({ id: int, descripcion: text, periodo: int }).strict()),
      })
      .strict()
      .nullable(),
    regimenGeneral: z
      .object({
        impuestos: z.array(impuestoSchema),
        actividades: z.array(actividadSchema),
        regimenes: z.array(
          z
            .object({ id: int, idImpuesto: int, descripcion: text, tipo: text, periodo: int })
            .strict(),
        ),
        categoriaAutonomo: categoriaSchema.nullable(),
      })
      .strict()
      .nullable(),
    monotributo: z
      .object({
        categoria: categoriaSchema.nullable(),
        impuestos: z.array(impuestoSchema),
        actividadMonotributista: actividadSchema.nullable(),
        actividades: z.array(actividadSchema),
      })
      .strict()
      .nullable(),
    errorConstancia: z
      .object({ errores: z.array(z.string()) })
      .strict()
      .nullable(),
    errorMonotributo: partialError,
    errorRegimenGeneral: partialError,
    condicionIvaReceptorId: z
      .number()
      .int()
      .nullable()
      .describe(
        "Condición frente al IVA para CondicionIVAReceptorId (tabla condicion-iva-receptor), derivada de los impuestos: 32 → 4 exento, 33 → 7 no categorizado, 34 → 15 no alcanzado, 30 → 1 responsable inscripto, monotributo → 6, sin impuestos → 5 consumidor final; null si el padrón no envió los datos que la deciden",
      ),
  })
  .strict();
export type Constancia = z.output<typeof constanciaSchema>;
