import { z } from "zod";
import { defineContract } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS, authorityQueryErrors } from "../common/authority-query.js";
import { environmentSchema, representadaSchema } from "../common/fields.js";
import { cbteNroSchema, cbteTipoSchema, ptoVtaSchema } from "./fields.js";

/** `email`: present only when the gateway keeps an e-mail record for the voucher. */
export const comprobanteEmailSchema = z.object({
  to: z.string(),
  status: z.string(),
  error: z.string().nullable(),
});

/**
 * Found: the authority's data (amounts as numbers, `impTotal` rounded to two
 * decimals half away from zero from the decimal the authority printed, never from a double)
 * plus `email` when there is one. Not found (authority 602): `{found: false}` and
 * nothing else.
 */
export const comprobanteReplySchema = z.union([
  z
    .object({
      found: z.literal(true),
      codAutorizacion: z.string(),
      resultado: z.string(),
      cbteDesde: z.number().int(),
      cbteHasta: z.number().int(),
      cbteFch: z.string(),
      impTotal: z
        .number()
        .describe("Importe total: número JSON a dos decimales, redondeado del decimal de la AFIP"),
      impNeto: z.number().describe("Importe neto: número JSON, el decimal que informa la AFIP"),
      impIVA: z.number().describe("Importe de IVA: número JSON, el decimal que informa la AFIP"),
      emisionTipo: z
        .literal("CAEA")
        .optional()
        .describe("CAEA: informado en contingencia bajo un CAEA; ausente con CAE propio"),
      email: comprobanteEmailSchema.optional(),
    })
    .strict(),
  z.object({ found: z.literal(false) }).strict(),
]);

/** `wsfe.comprobante.get` (FECompConsultar); without `ptoVta`, the representada's configured point of sale. */
export const comprobanteGet = defineContract({
  subject: "wsfe.comprobante.get",
  request: z
    .object({
      environment: environmentSchema,
      representada: representadaSchema,
      cbteTipo: cbteTipoSchema,
      cbteNro: cbteNroSchema,
      ptoVta: ptoVtaSchema.optional(),
    })
    .strict(),
  reply: comprobanteReplySchema,
  errors: authorityQueryErrors,
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});
