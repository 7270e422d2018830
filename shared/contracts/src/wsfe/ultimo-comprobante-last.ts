import { z } from "zod";
import { defineContract } from "../contract.js";
import { environmentSchema, representadaSchema } from "../common/fields.js";
import { cbteTipoSchema, ptoVtaSchema } from "./fields.js";

/** Spec §2.2: the last authorized number and the point of sale that was actually queried. */
export const ultimoComprobanteReplySchema = z.object({
  cbteNro: z.number().int().min(0),
  ptoVta: ptoVtaSchema,
  cbteTipo: z.number().int(),
});

/**
 * `wsfe.ultimo-comprobante.last` (FECompUltimoAutorizado, spec §4.4). Without `ptoVta` the
 * representada's configured point of sale is used and returned; none configured is a 400
 * naming `ptoVta`. Queries consume no quota.
 */
export const ultimoComprobanteLast = defineContract({
  subject: "wsfe.ultimo-comprobante.last",
  request: z
    .object({
      environment: environmentSchema,
      representada: representadaSchema,
      cbteTipo: cbteTipoSchema,
      ptoVta: ptoVtaSchema.optional(),
    })
    .strict(),
  reply: ultimoComprobanteReplySchema,
  errors: [
    "UNSUPPORTED_CBTE_TIPO",
    "REPRESENTADA_NOT_FOUND",
    "NO_ACTIVE_CERTIFICATE",
    "SERVICE_NOT_DELEGATED",
    "CERTIFICATE_ENVIRONMENT_MISMATCH",
    "REPRESENTADA_NOT_DELEGATED",
    "POINT_OF_SALE_NOT_ENABLED",
    "AUTHORITY_QUERY_REFUSED",
    "ACCESS_TICKET_PENDING",
    "AUTHORITY_UNAVAILABLE",
  ],
  // room for a first WSAA login (AUTHORITY_TIMEOUT_MS) plus the WSFE call itself
  timeoutMs: 65_000,
});
