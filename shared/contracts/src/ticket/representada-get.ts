import { z } from "zod";
import { contingenciaSchema } from "./contingencia.js";
import { defineContract } from "../contract.js";
import { environmentSchema, idSchema, representadaSchema } from "../common/fields.js";
import { emisorSchema } from "./perfil.js";

/**
 * `ticket.representada.get`: resolves (account from the header, cuit, environment). A CUIT of
 * another account answers exactly like an unknown one. With `requireActiveCertificate` a
 * representada without a usable certificate is NO_ACTIVE_CERTIFICATE instead of a reply.
 * `emisor` is the issuer profile as a voucher issued now copies it.
 */
export const representadaGet = defineContract({
  subject: "ticket.representada.get",
  request: z
    .object({
      cuit: representadaSchema,
      environment: environmentSchema,
      requireActiveCertificate: z.boolean().default(false),
    })
    .strict(),
  reply: z.object({
    representadaId: idSchema,
    cuit: representadaSchema,
    environment: environmentSchema,
    alias: z.string(),
    ptoVta: z.number().int().nullable(),
    contingencia: contingenciaSchema,
    certificateActive: z.boolean(),
    emisor: emisorSchema,
  }),
  errors: ["REPRESENTADA_NOT_FOUND", "NO_ACTIVE_CERTIFICATE"],
  timeoutMs: 5_000,
  needsAccount: true,
  // asking again does no harm: a lost request is repeated after the silence, not waited out
  onSilence: "repeat",
});
