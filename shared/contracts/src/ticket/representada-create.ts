import { z } from "zod";
import { defineContract } from "../contract.js";
import { environmentSchema, idSchema, representadaSchema } from "../common/fields.js";
import { ptoVtaSchema } from "../wsfe/fields.js";
import { aliasSchema } from "./fields.js";

/**
 * `ticket.representada.create` (operator): registers a CUIT for an account in one environment
 * and answers the CSR to submit to the authority; the private key never leaves the service.
 */
export const representadaCreate = defineContract({
  subject: "ticket.representada.create",
  request: z
    .object({
      accountId: idSchema,
      cuit: representadaSchema,
      environment: environmentSchema,
      alias: aliasSchema.optional(),
      /** the point of sale a domestic query uses when it omits `ptoVta` */
      ptoVta: ptoVtaSchema.optional(),
      /** O= of the CSR subject (the authority drops it from the certificate) */
      organization: z.string().trim().min(1).max(64).optional(),
      /** C= of the CSR subject, two letters */
      country: z
        .string()
        .regex(/^[A-Z]{2}$/)
        .optional(),
    })
    .strict(),
  reply: z.object({
    representadaId: idSchema,
    cuit: representadaSchema,
    environment: environmentSchema,
    alias: z.string(),
    csr: z.string().startsWith("-----BEGIN CERTIFICATE REQUEST-----"),
  }),
  errors: ["INVALID_CUIT", "REPRESENTADA_DUPLICATE"],
  timeoutMs: 20_000,
});
