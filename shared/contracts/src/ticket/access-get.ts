import { createHash } from "node:crypto";
import { z } from "zod";
import { defineContract } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS } from "../common/authority-query.js";
import {
  environmentSchema,
  isoDateTimeSchema,
  representadaSchema,
  webServiceSchema,
} from "../common/fields.js";

/**
 * How a caller names a token the authority refused without sending the token back: SHA-256 of
 * its text, lower-case hex. Both sides compute it with this function.
 */
export function accessTokenDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * `ticket.access.get`: a WSAA access ticket (TA) for (account from the header, cuit,
 * environment, service). At most one login per certificate, service and ticket lifetime;
 * the TA is stored (encrypted) before it is answered. Callers cache it until shortly before
 * `expiresAt` (`makeAccessTicketCache` in @pasarela/authority).
 *
 * With `rejectedToken` the caller says the authority refused that TA (token dates, another
 * service's token) although it is not expired by the gateway's clock: if it is still the
 * stored one, it is replaced by a new login, at most once per TA_RETRY_AFTER_MS.
 */
export const accessGet = defineContract({
  subject: "ticket.access.get",
  request: z
    .object({
      cuit: representadaSchema,
      environment: environmentSchema,
      service: webServiceSchema,
      /** `accessTokenDigest` of the token the authority refused */
      rejectedToken: z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
    })
    .strict(),
  reply: z.object({
    token: z.string().min(1),
    sign: z.string().min(1),
    expiresAt: isoDateTimeSchema,
    /**
     * the end of the signing certificate's validity: a caller keeps the TA no longer than this,
     * whatever `expiresAt` says, because the gateway refuses to act for a lapsed certificate
     */
    certificateNotAfter: isoDateTimeSchema,
    /** the represented CUIT, for the `Auth/Cuit` or `cuitRepresentada` of the call */
    cuit: representadaSchema,
  }),
  errors: [
    "REPRESENTADA_NOT_FOUND",
    "NO_ACTIVE_CERTIFICATE",
    "SERVICE_NOT_DELEGATED",
    "CERTIFICATE_ENVIRONMENT_MISMATCH",
    "ACCESS_TICKET_PENDING",
    "AUTHORITY_UNAVAILABLE",
  ],
  // the longest any caller waits; the caller's deadline (budget-ms) usually ends it sooner
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  needsAccount: true,
  // asking again does no harm: a lost request is repeated after the silence, not waited out
  onSilence: "repeat",
});
