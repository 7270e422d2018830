import { z } from "zod";
import { defineContract } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS } from "../common/authority-query.js";
import { issuedReplySchema } from "./issued-reply.js";

const noteSchema = z.object({ code: z.number().int(), msg: z.string() }).strict();

/**
 * `wsfe.factura.get`: what became of the account's issuance under an
 * Idempotency-Key. A voucher still `pending`/`unknown` is first settled with the authority as
 * its series' writer (the reconciliation an issuance runs before numbering), so a retry after
 * a 502 gets the voucher the authority actually issued. `not_issued`: nothing under the key
 * was authorized or rejected (never sent, never used, or a stranger's number), so it may be
 * issued now.
 */
export const facturaGet = defineContract({
  subject: "wsfe.factura.get",
  request: z.object({ idempotencyKey: z.string().min(1).max(255) }).strict(),
  reply: z.discriminatedUnion("state", [
    z.object({ state: z.literal("authorized"), reply: issuedReplySchema }).strict(),
    z
      .object({
        state: z.literal("rejected"),
        observaciones: z.array(noteSchema),
        errores: z.array(noteSchema),
        ptoVta: z.number().int(),
        cbteTipo: z.number().int(),
        cbteNro: z.number().int(),
      })
      .strict(),
    z.object({ state: z.literal("not_issued") }).strict(),
  ]),
  errors: [
    "REPRESENTADA_NOT_FOUND",
    "NO_ACTIVE_CERTIFICATE",
    "SERVICE_NOT_DELEGATED",
    "CERTIFICATE_ENVIRONMENT_MISMATCH",
    "REPRESENTADA_NOT_DELEGATED",
    "ACCESS_TICKET_PENDING",
    "AUTHORITY_UNAVAILABLE",
    "SERVICE_UNAVAILABLE",
  ],
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  onSilence: "repeat",
  needsAccount: true,
});
