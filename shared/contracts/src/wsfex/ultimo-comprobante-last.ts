import { z } from "zod";
import { defineContract } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS, authorityQueryErrors } from "../common/authority-query.js";
import { environmentSchema, representadaSchema } from "../common/fields.js";
import { ptoVtaSchema } from "../wsfe/fields.js";
import { cbteTipoSchema } from "./fields.js";
import { ultimoComprobanteReplySchema } from "../wsfe/ultimo-comprobante-last.js";

/**
 * `wsfex.ultimo-comprobante.last` (FEXGetLast_CMP): `ptoVta` is required for
 * export queries; the reply has the domestic shape.
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
  errors: authorityQueryErrors,
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});
