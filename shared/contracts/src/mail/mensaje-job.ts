import { z } from "zod";
import { defineJob } from "../contract.js";
import { emailSchema } from "../catalog/fields.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";

/**
 * `job.mail.mensaje`: send one plain message (a password-reset link, an operator's reply to a
 * support ticket) through the same SMTP path and retry rules as the vouchers. Its own
 * work-queue stream: a work queue's consumers may not overlap, and each job kind has one.
 */
export const mensajeJob = defineJob({
  subject: "job.mail.mensaje",
  stream: "MAIL_MENSAJES",
  schema: z.object({
    id: idSchema,
    to: emailSchema,
    subject: z.string().min(1).max(300),
    text: z.string().min(1),
    html: z.string().optional(),
    queuedAt: isoDateTimeSchema,
  }),
});
export type MensajeJob = z.output<typeof mensajeJob.schema>;
