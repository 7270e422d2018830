import { z } from "zod";
import { defineContract } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS } from "../common/authority-query.js";
import { environmentSchema, representadaSchema } from "../common/fields.js";
import { tablaSchema } from "./fields.js";

/**
 * One row of a parameter table. `id` keeps the authority's value and type as published (a
 * number where the WSDL says int, a string where it says string: `alicuotas-iva` "5",
 * `tipos-opcional` "2101"); dates stay `yyyymmdd`, the authority's open-ended `NULL` is null.
 * Only the members the table has are present.
 */
export const parametroItemSchema = z
  .object({
    id: z.union([z.number().int(), z.string()]),
    descripcion: z.string(),
    /** tipos-comprobante, tipos-documento, alicuotas-iva, tipos-opcional */
    vigenciaDesde: z.string().nullable().optional(),
    vigenciaHasta: z.string().nullable().optional(),
    /** condicion-iva-receptor: voucher classes it applies to, as published (e.g. "A/M/C") */
    claseComprobante: z.string().optional(),
    /**
     * puntos-de-venta lists only the points enabled today: `bloqueado` is always
     * false there, and `fechaBaja` is null or a withdrawal date still to come (yyyymmdd)
     */
    bloqueado: z.boolean().optional(),
    fechaBaja: z.string().nullable().optional(),
  })
  .strict();

/**
 * `/api/wsfe/parametros/:tabla` answers one of two documented shapes: every list table is
 * `{tabla, items: [{id, descripcion, ...}]}` (an empty list when the authority has none);
 * `cotizacion` is `{tabla, moneda, cotizacion, fecha}`.
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
      cotizacion: z.number(),
      fecha: z.string(),
    })
    .strict(),
]);

/** `wsfe.parametros.get` (FEParamGet*). `moneda` only for `cotizacion` (default DOL). */
export const parametrosGet = defineContract({
  subject: "wsfe.parametros.get",
  request: z
    .object({
      tabla: tablaSchema,
      environment: environmentSchema,
      representada: representadaSchema,
      moneda: z.string().trim().min(1).max(3).optional(),
    })
    .strict(),
  reply: parametrosReplySchema,
  errors: [
    "REPRESENTADA_NOT_FOUND",
    "NO_ACTIVE_CERTIFICATE",
    "SERVICE_NOT_DELEGATED",
    "CERTIFICATE_ENVIRONMENT_MISMATCH",
    "REPRESENTADA_NOT_DELEGATED",
    "AUTHORITY_QUERY_REFUSED",
    "ACCESS_TICKET_PENDING",
    "AUTHORITY_UNAVAILABLE",
  ],
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});
