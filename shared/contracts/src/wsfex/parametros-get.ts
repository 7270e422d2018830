import { z } from "zod";
import { defineContract } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS, authorityQueryErrors } from "../common/authority-query.js";
import { environmentSchema, representadaSchema } from "../common/fields.js";

/** The export parameter tables (FEXGetPARAM_*), by the path segment that names them. */
export const TABLAS = [
  "tipos-comprobante",
  "tipos-exportacion",
  "incoterms",
  "idiomas",
  "unidades-medida",
  "paises",
  "cuit-paises",
  "monedas",
  "monedas-con-cotizacion",
  "cotizacion",
  "puntos-de-venta",
  "opcionales",
  "actividades",
] as const;
export const tablaSchema = z.enum(TABLAS);
export type Tabla = z.infer<typeof tablaSchema>;

/** The tables that take a day: the rates in force on it. */
const DATED: readonly Tabla[] = ["monedas-con-cotizacion", "cotizacion"];

const decimalText = z.string().regex(/^\d+(\.\d+)?$/);
const yyyymmdd = z.string().regex(/^\d{8}$/);

/**
 * One row of an export parameter table. `id` has the type the export voucher takes the value
 * in: a number for tipos-comprobante, tipos-exportacion, idiomas, unidades-medida, paises,
 * puntos-de-venta and actividades; text for incoterms, monedas, monedas-con-cotizacion,
 * opcionales and cuit-paises (an 11-digit CUIT). Dates are yyyymmdd, an open end null. Only
 * the members the table has are present.
 */
export const parametroItemSchema = z
  .object({
    id: z.union([z.number().int(), z.string()]),
    /** every table but puntos-de-venta, whose rows have none */
    descripcion: z.string().optional(),
    /** tipos-comprobante, tipos-exportacion, incoterms, idiomas, unidades-medida, monedas, opcionales */
    vigenciaDesde: z.string().nullable().optional(),
    vigenciaHasta: z.string().nullable().optional(),
    /** monedas-con-cotizacion: the rate as the authority printed it (exact decimal text) */
    cotizacion: decimalText.optional(),
    /** monedas-con-cotizacion: the day of the rate */
    fecha: yyyymmdd.optional(),
    /** actividades: the order the issuer registered them in */
    orden: z.number().int().optional(),
    /**
     * puntos-de-venta lists only the points enabled today: `bloqueado` is always false there,
     * and `fechaBaja` is null or a withdrawal date still to come (yyyymmdd)
     */
    bloqueado: z.boolean().optional(),
    fechaBaja: z.string().nullable().optional(),
  })
  .strict();
export type ParametroItem = z.infer<typeof parametroItemSchema>;

/**
 * `/api/wsfex/parametros/:tabla` answers one of two shapes: every list table is
 * `{tabla, items: [{id, descripcion, ...}]}` (an empty list when the authority has none);
 * `cotizacion` is `{tabla, moneda, cotizacion, fecha}`. Rates travel as the authority's exact
 * decimal text; the HTTP answer gives them as JSON numbers.
 */
export const parametrosReplySchema = z.union([
  z
    .object({
      tabla: tablaSchema.exclude(["cotizacion"]),
      items: z.array(parametroItemSchema),
    })
    .strict(),
  z
    .object({
      tabla: z.literal("cotizacion"),
      moneda: z.string(),
      cotizacion: decimalText,
      fecha: yyyymmdd,
    })
    .strict(),
]);

/** The members a table's request may carry besides the table. */
export const parametrosOptionsSchema = z.object({
  environment: environmentSchema,
  representada: representadaSchema,
  /** cotizacion only, and there required: the currency's id as monedas lists it (DOL) */
  monedaId: z
    .string()
    .trim()
    .min(1)
    .max(3)
    .optional()
    .describe("Solo con cotizacion, y obligatorio allí: el id de la moneda (p. ej. DOL)"),
  /** monedas-con-cotizacion and cotizacion: the day (AAAAMMDD), today in Argentina by default */
  fecha: yyyymmdd
    .optional()
    .describe(
      "Solo con monedas-con-cotizacion y cotizacion: el día, AAAAMMDD (hoy en la Argentina si falta)",
    ),
});

/**
 * What is wrong with the members given for `tabla`, if anything: `monedaId` belongs to
 * cotizacion, which needs it, and `fecha` to the tables of rates. The edge and the bus say it
 * in the same words.
 */
export function parametrosProblem(
  tabla: Tabla,
  given: { monedaId?: string | undefined; fecha?: string | undefined },
): { field: string; problem: string } | undefined {
  if (tabla === "cotizacion" && given.monedaId === undefined) {
    return { field: "monedaId", problem: "es obligatorio con la tabla cotizacion" };
  }
  if (tabla !== "cotizacion" && given.monedaId !== undefined) {
    return { field: "monedaId", problem: "solo se acepta con la tabla cotizacion" };
  }
  if (!DATED.includes(tabla) && given.fecha !== undefined) {
    return {
      field: "fecha",
      problem: "solo se acepta con las tablas monedas-con-cotizacion y cotizacion",
    };
  }
  return undefined;
}

/** `wsfex.parametros.get` (FEXGetPARAM_*). */
export const parametrosGet = defineContract({
  subject: "wsfex.parametros.get",
  request: parametrosOptionsSchema
    .extend({ tabla: tablaSchema })
    .strict()
    .superRefine((request, ctx) => {
      const wrong = parametrosProblem(request.tabla, request);
      if (wrong) ctx.addIssue({ code: "custom", path: [wrong.field], message: wrong.problem });
    }),
  reply: parametrosReplySchema,
  errors: authorityQueryErrors,
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});
