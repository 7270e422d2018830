import { z } from "zod";
import { defineEvent } from "../contract.js";
import { emailSchema } from "../catalog/fields.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";
import { comprobanteKeyFields } from "../pdf/fields.js";

/** What both outcomes of a voucher e-mail carry: the job, its voucher and its recipients. */
const emailEventFields = {
  /** one per job and outcome: `<job id>:enviado` or `<job id>:fallido` */
  id: z.string(),
  version: z.literal(1),
  jobId: idSchema,
  accountId: idSchema,
  ...comprobanteKeyFields,
  to: emailSchema,
  cc: z.array(emailSchema),
  occurredAt: isoDateTimeSchema,
};

/**
 * `evt.mail.email.enviado`: the SMTP relay accepted a voucher's e-mail. Published by the mail
 * service, which sends it, before it reports the outcome to wsfe; a job redelivered after a
 * crash publishes the same id again, de-duplicated by the stream and by its consumers.
 */
export const emailEnviado = defineEvent({
  subject: "evt.mail.email.enviado",
  version: 1,
  schema: z.object({ ...emailEventFields }).strict(),
});

/**
 * `evt.mail.email.fallido`: a voucher's e-mail failed for good (a permanent SMTP answer, or
 * temporary ones past the retry bound). `error` is the SMTP text (at most 2000 characters);
 * `smtpCode` the relay's reply code when it gave one.
 */
export const emailFallido = defineEvent({
  subject: "evt.mail.email.fallido",
  version: 1,
  schema: z
    .object({
      ...emailEventFields,
      error: z.string(),
      smtpCode: z.number().int().min(200).max(599).nullable(),
    })
    .strict(),
});

/** The id of a job's outcome event: stable across redeliveries of the job. */
export const emailEventId = (jobId: string, outcome: "enviado" | "fallido"): string =>
  `${jobId}:${outcome}`;
