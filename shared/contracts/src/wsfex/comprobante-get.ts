import { z } from "zod";
import { defineContract } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS, authorityQueryErrors } from "../common/authority-query.js";
import { environmentSchema, representadaSchema } from "../common/fields.js";
import { comprobanteEmailSchema } from "../wsfe/comprobante-get.js";
import { cbteNroSchema, ptoVtaSchema } from "../wsfe/fields.js";
import { cbteTipoSchema } from "./fields.js";

/**
 * found → the authority's `FEXResultGet` as it came (values as text, repeated
 * blocks as lists) under `FEXGetCMPResult`, plus `email` when the gateway keeps an e-mail
 * record for the voucher (as the domestic lookup); not found (authority 1020) → `{found: false,
 * comprobante: null}`.
 */
export const comprobanteReplySchema = z.union([
  z
    .object({
      found: z.literal(true),
      comprobante: z.object({ FEXGetCMPResult: z.record(z.string(), z.unknown()) }).strict(),
      email: comprobanteEmailSchema.optional(),
    })
    .strict(),
  z.object({ found: z.literal(false), comprobante: z.null() }).strict(),
]);

/** `wsfex.comprobante.get` (FEXGetCMP). */
export const comprobanteGet = defineContract({
  subject: "wsfex.comprobante.get",
  request: z
    .object({
      environment: environmentSchema,
      representada: representadaSchema,
      ptoVta: ptoVtaSchema,
      cbteTipo: cbteTipoSchema,
      cbteNro: cbteNroSchema,
    })
    .strict(),
  reply: comprobanteReplySchema,
  errors: authorityQueryErrors,
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});
