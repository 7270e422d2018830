import { z } from "zod";
import { defineContract, defineEvent } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS } from "../common/authority-query.js";
import {
  environmentSchema,
  idSchema,
  isoDateTimeSchema,
  representadaSchema,
} from "../common/fields.js";

const authorityQueryErrors = [
  "REPRESENTADA_NOT_FOUND",
  "NO_ACTIVE_CERTIFICATE",
  "SERVICE_NOT_DELEGATED",
  "CERTIFICATE_ENVIRONMENT_MISMATCH",
  "REPRESENTADA_NOT_DELEGATED",
  "ACCESS_TICKET_PENDING",
  "AUTHORITY_UNAVAILABLE",
] as const;

/**
 * `wsfe.contingencia.validate`: whether every point of sale is one the authority lists for the
 * representada with EmisionTipo CAEA, enabled (FEParamGetPtosVenta). 400 naming the first that
 * is not; nothing is stored.
 */
export const contingenciaValidate = defineContract({
  subject: "wsfe.contingencia.validate",
  request: z
    .object({
      environment: environmentSchema,
      representada: representadaSchema,
      puntosDeVenta: z.array(z.number().int().min(1).max(99998)).max(50),
    })
    .strict(),
  reply: z.object({ valid: z.literal(true) }).strict(),
  errors: ["INVALID_FIELD", ...authorityQueryErrors],
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  needsAccount: true,
});

/** A fortnight's CAEA as the authority granted it, and when the gateway obtained it. */
export const caeaSchema = z
  .object({
    caea: z.string().regex(/^\d{14}$/),
    periodo: z.number().int().describe("Año y mes, aaaamm"),
    orden: z.union([z.literal(1), z.literal(2)]).describe("1: días 1 a 15; 2: del 16 a fin de mes"),
    fchVigDesde: z.string().describe("aaaammdd"),
    fchVigHasta: z.string().describe("aaaammdd"),
    fchTopeInf: z.string().describe("aaaammdd: último día para informar sus comprobantes"),
    obtenidoAt: isoDateTimeSchema,
  })
  .strict();
export type Caea = z.output<typeof caeaSchema>;

/**
 * `wsfe.caea.list`: the representada's CAEA of the current fortnight and of the next one, each
 * null while not obtained. The account must hold the representada.
 */
export const caeaList = defineContract({
  subject: "wsfe.caea.list",
  request: z.object({ environment: environmentSchema, representada: representadaSchema }).strict(),
  reply: z.object({ actual: caeaSchema.nullable(), proxima: caeaSchema.nullable() }).strict(),
  errors: ["REPRESENTADA_NOT_FOUND"],
  needsAccount: true,
});

/**
 * `evt.wsfe.caea.no_obtenido`: a representada with CAEA contingency on has no CAEA for a
 * fortnight that has started or starts within a day: contingency cannot issue in it until the
 * authority grants one. Once per representada and fortnight.
 */
export const caeaNoObtenido = defineEvent({
  subject: "evt.wsfe.caea.no_obtenido",
  version: 1,
  schema: z.object({
    id: z.string(),
    version: z.literal(1),
    accountId: idSchema,
    environment: environmentSchema,
    representada: representadaSchema,
    periodo: z.number().int(),
    orden: z.union([z.literal(1), z.literal(2)]),
    /** the fortnight's first and last day, yyyymmdd */
    fchVigDesde: z.string(),
    fchVigHasta: z.string(),
    occurredAt: isoDateTimeSchema,
  }),
});

/** The event id of a fortnight's missing CAEA: one per account, representada and fortnight. */
export const caeaNoObtenidoEventId = (
  accountId: string,
  environment: string,
  representada: string,
  periodo: number,
  orden: number,
) => `wsfe.caea.no_obtenido.${accountId}.${environment}.${representada}.${periodo}.${orden}`;
