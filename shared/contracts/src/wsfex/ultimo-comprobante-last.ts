import { z } from "zod";
import { defineContract } from "../contract.js";
import { environmentSchema, representadaSchema } from "../common/fields.js";
import { cbteTipoSchema, ptoVtaSchema } from "../wsfe/fields.js";
import { ultimoComprobanteReplySchema } from "../wsfe/ultimo-comprobante-last.js";

const errors = [
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
] as const;

/** Codes every WSFEX query may answer besides the bus's own. */
export const wsfexQueryErrors = errors;

/**
 * `wsfex.ultimo-comprobante.last` (FEXGetLast_CMP, spec §4.1): `ptoVta` is required for
 * export queries; the reply has the domestic shape (spec §2.2).
 */
export const ultimoComprobanteLast = defineContract({
  subject: "wsfex.ultimo-comprobante.last",
  request: z
    .object({
      environment: environmentSchema,
      representada: representadaSchema,
      ptoVta: ptoVtaSchema,
      cbteTipo: cbteTipoSchema,
    })
    .strict(),
  reply: ultimoComprobanteReplySchema,
  errors,
  timeoutMs: 65_000,
});
