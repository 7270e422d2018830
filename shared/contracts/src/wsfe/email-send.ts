import { z } from "zod";
import { defineContract } from "../contract.js";
import { emailSchema } from "../catalog/fields.js";
import { comprobanteKeyFields } from "../pdf/fields.js";

/** The most `cc` addresses one e-mail of a voucher carries. */
export const EMAIL_CC_MAX = 10;

/** What POST /api/wsfe/comprobantes/email takes besides the five-tuple. */
export const emailOptionsFields = {
  to: emailSchema
    .optional()
    .describe(
      "Destinatario; por omisión el e-mail del cliente receptor y, si no tiene, el email de la emisión",
    ),
  cc: z
    .array(emailSchema)
    .max(EMAIL_CC_MAX, `admite hasta ${EMAIL_CC_MAX} direcciones`)
    .optional()
    .describe("Copias"),
  asunto: z
    .string()
    .trim()
    .min(1, "no puede estar vacío")
    .max(200, "admite hasta 200 caracteres")
    .optional()
    .describe("Asunto; por omisión el tipo y número del comprobante y el emisor"),
  mensaje: z
    .string()
    .trim()
    .min(1, "no puede estar vacío")
    .max(5000, "admite hasta 5000 caracteres")
    .optional()
    .describe("Texto que encabeza el cuerpo del e-mail"),
};

export const emailSendBodySchema = z
  .object({ ...comprobanteKeyFields, ...emailOptionsFields })
  .strict();
export type EmailSendBody = z.output<typeof emailSendBodySchema>;

/** `email.status` of a voucher: queued, delivered, or given up with the SMTP error text. */
export const EMAIL_STATUSES = ["pending", "sent", "failed"] as const;
export const emailStatusSchema = z.enum(EMAIL_STATUSES);

export const emailSendReplySchema = z
  .object({ to: z.string(), status: z.literal("pending") })
  .strict();

/**
 * `wsfe.email.send` (POST /api/wsfe/comprobantes/email): records the voucher's e-mail as
 * `pending` and queues its delivery. Only an authorized voucher the account (bus header)
 * issued through the gateway is sent (COMPROBANTE_NOT_FOUND, COMPROBANTE_NO_AUTORIZADO); without
 * `to` the receiver customer's e-mail is used, else the issuance's `email`, else
 * EMAIL_RECIPIENT_MISSING. `emision: true` is the automatic send after issuance: only the
 * recipient recorded then, and only while its record is still `pending`.
 */
export const emailSend = defineContract({
  subject: "wsfe.email.send",
  request: emailSendBodySchema.extend({ emision: z.boolean().optional() }).strict(),
  reply: emailSendReplySchema,
  errors: ["COMPROBANTE_NOT_FOUND", "COMPROBANTE_NO_AUTORIZADO", "EMAIL_RECIPIENT_MISSING"],
  timeoutMs: 10_000,
  needsAccount: true,
});

/**
 * `wsfe.email.update`: the mail service reports how delivery ended. Only a `pending` record of
 * the same recipient moves, so a late report never overwrites a newer send.
 */
export const emailUpdate = defineContract({
  subject: "wsfe.email.update",
  request: z
    .object({
      ...comprobanteKeyFields,
      to: z.string(),
      status: z.enum(["sent", "failed"]),
      error: z.string().max(2000).nullable(),
    })
    .strict(),
  reply: z.object({ updated: z.boolean() }).strict(),
  errors: [],
  timeoutMs: 5_000,
  needsAccount: true,
});
