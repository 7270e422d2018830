import { z } from "zod";
import { defineContract } from "../contract.js";
import { comprobanteKeySchema } from "../pdf/fields.js";
import { comprobanteEmailSchema } from "./comprobante-get.js";

/** `email` is the record as the domestic lookup shows it, or null when the voucher has none. */
export const emailGetReplySchema = z.object({ email: comprobanteEmailSchema.nullable() }).strict();
export type EmailGetRequest = z.output<typeof comprobanteKeySchema>;
export type EmailGetReply = z.output<typeof emailGetReplySchema>;

/**
 * `wsfe.email.get`: the e-mail record the account (bus header) keeps for one voucher named by
 * all five fields, domestic or export. A voucher never e-mailed, another account's and one
 * that does not exist all answer `{email: null}`: the export lookup asks alongside the
 * authority and shows the record only for a voucher the authority found.
 */
export const emailGet = defineContract({
  subject: "wsfe.email.get",
  request: comprobanteKeySchema,
  reply: emailGetReplySchema,
  errors: [],
  timeoutMs: 5_000,
  onSilence: "repeat",
  needsAccount: true,
});
