import { z } from "zod";
import { defineContract } from "../contract.js";
import {
  environmentSchema,
  idSchema,
  isoDateTimeSchema,
  representadaSchema,
} from "../common/fields.js";
import { pemTextSchema } from "./fields.js";

/**
 * `ticket.certificate.create` (operator): uploads the certificate the authority issued for
 * the pending CSR, or a certificate generated elsewhere together with its private key (the
 * pending CSR is then cancelled). The new certificate becomes the only active one.
 */
export const certificateCreate = defineContract({
  subject: "ticket.certificate.create",
  request: z
    .object({
      representadaId: idSchema,
      certificate: pemTextSchema,
      privateKey: pemTextSchema.optional(),
    })
    .strict(),
  reply: z.object({
    representadaId: idSchema,
    cuit: representadaSchema,
    environment: environmentSchema,
    status: z.literal("active"),
    notBefore: isoDateTimeSchema,
    notAfter: isoDateTimeSchema,
    subject: z.string(),
    issuer: z.string(),
    /**
     * Set when the issuer is recognisably the other environment's CA (test and production
     * certificates come from different CAs): the certificate is stored, but the authority
     * will refuse it in this environment.
     */
    warning: z
      .object({
        code: z.literal("CERTIFICATE_WRONG_ENVIRONMENT"),
        message: z.string(),
        issuerEnvironment: environmentSchema,
      })
      .optional(),
  }),
  errors: [
    "REPRESENTADA_NOT_FOUND",
    "CERTIFICATE_NOT_PEM",
    "CERTIFICATE_IS_CSR",
    "CERTIFICATE_KEY_MISMATCH",
    "CERTIFICATE_EXPIRED",
    "CERTIFICATE_NOT_YET_VALID",
    "PRIVATE_KEY_INVALID",
    "CERTIFICATE_NEEDS_KEY",
  ],
});
