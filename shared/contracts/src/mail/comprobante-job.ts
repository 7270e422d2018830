import { z } from "zod";
import { defineJob } from "../contract.js";
import { emailSchema } from "../catalog/fields.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";
import { comprobanteKeyFields } from "../pdf/fields.js";
import { EMAIL_CC_MAX } from "../wsfe/email-send.js";

/**
 * `job.mail.comprobante`: send one voucher by e-mail. Queued by wsfe once the `pending`
 * record is stored; the mail service renders the PDF, makes the shareable link and reports
 * `sent` or `failed` back to wsfe.
 */
export const comprobanteJob = defineJob({
  subject: "job.mail.comprobante",
  stream: "MAIL_JOBS",
  schema: z.object({
    id: idSchema,
    accountId: idSchema,
    ...comprobanteKeyFields,
    to: emailSchema,
    cc: z.array(emailSchema).max(EMAIL_CC_MAX),
    asunto: z.string().optional(),
    mensaje: z.string().optional(),
    queuedAt: isoDateTimeSchema,
  }),
});
export type ComprobanteJob = z.output<typeof comprobanteJob.schema>;
