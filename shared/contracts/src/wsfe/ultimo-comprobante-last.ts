import { z } from "zod";
import { defineContract } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS, authorityQueryErrors } from "../common/authority-query.js";
import { environmentSchema, representadaSchema } from "../common/fields.js";
import { cbteTipoSchema, ptoVtaSchema } from "./fields.js";

/** the last authorized number and the point of sale that was actually queried. */
export const ultimoComprobanteReplySchema = z.object({
  cbteNro: z.number().int().min(0),
  ptoVta: ptoVtaSchema,
  cbteTipo: z.number().int(),
});

/**
 * `wsfe.ultimo-comprobante.last` (FECompUltimoAutorizado). Without `ptoVta` the
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
  errors: authorityQueryErrors,
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});
