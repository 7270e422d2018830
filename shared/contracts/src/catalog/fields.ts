import { ALICUOTAS_IVA, alicuotaNotAccepted } from "@pasarela/errors";
import { z } from "zod";
import { AMOUNT_SIGNIFICANT_DIGITS, significantDigits } from "../common/amount.js";
import { decimalSchema } from "../common/decimal.js";

// Messages complete "El campo <field> …" (the edge and the bus prefix the field's name).
const required =
  (otherwise: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? "es obligatorio" : otherwise;

/**
 * The authority's document types (FEParamGetTiposDoc): 0–24 provincial ID cards (15 does not
 * exist), 80 CUIT, 86 CUIL, 87 CDI, 89–95, 96 DNI, 99 other; 30 and 31 appear in newer rules
 * and are accepted so a customer the authority takes is never refused here.
 */
export const DOC_TIPOS: readonly number[] = [
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24, 30, 31, 80,
  86, 87, 89, 90, 91, 92, 93, 94, 95, 96, 99,
];
const docTipoProblem =
  "no es un tipo de documento de la AFIP. Tipos aceptados: 0–14, 16–24, 30, 31, 80 (CUIT), 86 (CUIL), 87, 89–95, 96 (DNI), 99 (otro)";

/** `DocTipo` of the authority; the CUIT/CUIL check digit is checked with `docNro` (80, 86). */
export const docTipoSchema = z
  .number({ error: required(docTipoProblem) })
  .int({ error: docTipoProblem })
  .refine((value) => DOC_TIPOS.includes(value), { error: docTipoProblem })
  .meta({
    description:
      "Tipo de documento de la AFIP (FEParamGetTiposDoc): 80 CUIT, 86 CUIL, 96 DNI, 99 otro…",
    enum: DOC_TIPOS,
  });

/**
 * `DocNro`: the authority keeps it as a number, so leading zeros carry no meaning and are
 * dropped ("01234567" and "1234567" are one document for uniqueness).
 */
export const docNroSchema = z
  .string({ error: required("debe ser un texto de dígitos, sin puntos ni guiones") })
  .regex(/^\d{1,11}$/, "debe tener entre 1 y 11 dígitos, sin puntos ni guiones")
  .transform((digits) => digits.replace(/^0+(?=\d)/, ""))
  .describe("Número de documento: solo dígitos (una CUIT/CUIL, 11 con dígito verificador)");

/** The receiver's VAT conditions the authority publishes (FEParamGetCondicionIvaReceptor). */
export const CONDICIONES_IVA_RECEPTOR: readonly number[] = [1, 4, 5, 6, 7, 8, 9, 10, 13, 15, 16];
const condicionProblem =
  "no es una condición frente al IVA de la AFIP. Condiciones aceptadas: 1, 4, 5, 6, 7, 8, 9, 10, 13, 15, 16";
export const condicionIvaReceptorIdSchema = z
  .number({ error: required(condicionProblem) })
  .int({ error: condicionProblem })
  .refine((value) => CONDICIONES_IVA_RECEPTOR.includes(value), { error: condicionProblem })
  .meta({
    description:
      "Condición frente al IVA del receptor (1 RI, 4 exento, 5 consumidor final, 6 monotributo, …); opcional al guardar, obligatoria al emitir",
    enum: CONDICIONES_IVA_RECEPTOR,
  });

const text = (max: number, what: string, missing = "es obligatorio") =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? missing : `debe ser un texto de hasta ${max} caracteres`,
    })
    .trim()
    .min(1, `no puede estar vacío${what}`)
    .max(max, `admite hasta ${max} caracteres`);
const clearWithNull = "; enviá null para borrarlo";

/** `missing` words its absence where a body can do without it in another of its forms. */
export const razonSocialField = (missing?: string) =>
  text(200, "", missing).describe("Nombre o razón social");
export const razonSocialSchema = razonSocialField();
export const emailSchema = z
  .email({ error: required("debe ser una dirección de e-mail válida") })
  .max(254, "admite hasta 254 caracteres");
export const domicilioSchema = text(300, clearWithNull).describe("Domicilio, en una línea");

export const codigoSchema = text(50, clearWithNull).describe(
  "Código propio del producto (SKU); no necesita ser único",
);
export const descripcionSchema = text(500, "").describe("Descripción; no necesita ser única");
export const unidadMedidaSchema = text(30, clearWithNull).describe(
  'Unidad de medida en texto libre, p. ej. "unidad", "kg", "hora"',
);

/**
 * An exact decimal, as a JSON number or decimal text like the prices of an issuance, kept as
 * canonical decimal text so no binary floating point touches it; up to 12 integer digits and 6
 * fraction digits (unit prices may be finer than the 2 of a total), and at most 15 significant
 * digits, so the price answers as a JSON number that prints back as the same decimal.
 */
export const precioUnitarioSchema = decimalSchema({
  integerDigits: 12,
  fractionDigits: 6,
  description:
    "Precio unitario sin IVA, número JSON o decimal en texto, con hasta 6 decimales y 15 dígitos significativos",
  example: "1210.50",
}).refine((text) => significantDigits(text) <= AMOUNT_SIGNIFICANT_DIGITS, {
  error: `admite hasta ${AMOUNT_SIGNIFICANT_DIGITS} dígitos significativos entre enteros y decimales (p. ej. 123456789.123456), para responderse exacto como número`,
});

const alicuotas: readonly number[] = ALICUOTAS_IVA.map(Number);
/** A rate outside the list is a 400 whose message lists them. */
export const alicuotaIvaSchema = z
  .number({
    error: (issue) =>
      issue.input === undefined
        ? "es obligatorio"
        : alicuotaNotAccepted(JSON.stringify(issue.input)),
  })
  .refine((value) => alicuotas.includes(value), {
    error: (issue) => alicuotaNotAccepted(issue.input),
  })
  .meta({
    description:
      "Alícuota de IVA en %: 0, 2.5, 5, 10.5, 21 o 27; opcional al guardar, obligatoria al emitir",
    enum: alicuotas,
  });

/**
 * Any text: a malformed id must answer the same not-found as an unknown one, so ids cannot be
 * told apart by their shape; the service checks the UUID form.
 */
export const catalogIdSchema = z.string().max(200);

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;
export const limitSchema = z
  .number()
  .int("debe ser un entero")
  .min(1, `debe estar entre 1 y ${PAGE_LIMIT_MAX}`)
  .max(PAGE_LIMIT_MAX, `debe estar entre 1 y ${PAGE_LIMIT_MAX}`)
  .default(PAGE_LIMIT_DEFAULT);
/** Opaque: the `nextCursor` of the previous page, valid only for its account, list and filters. */
export const cursorSchema = z.string().min(1).max(200);
export const searchSchema = z
  .string()
  .trim()
  .min(1, "no puede estar vacío")
  .max(100, "admite hasta 100 caracteres");

/** A page of a list: `nextCursor` is null on the last page. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    nextCursor: z
      .string()
      .nullable()
      .describe("Pasalo como `cursor` para la página siguiente; null en la última"),
  });
