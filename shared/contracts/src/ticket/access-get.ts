import { z } from "zod";
import { defineContract } from "../contract.js";
import {
  environmentSchema,
  isoDateTimeSchema,
  representadaSchema,
  webServiceSchema,
} from "../common/fields.js";

/**
 * `ticket.access.get`: a WSAA access ticket (TA) for (account from the header, cuit,
 * environment, service). At most one login per certificate, service and ticket lifetime;
 * the TA is stored (encrypted) before it is answered. Callers cache it until shortly before
 * `expiresAt` (`makeAccessTicketCache` in @pasarela/authority).
 */
export const accessGet = defineContract({
  subject: "ticket.access.get",
  request: z
    .object({
      cuit: representadaSchema,
      environment: environmentSchema,
      service: webServiceSchema,
    })
    .strict(),
  reply: z.object({
    token: z.string().min(1),
    sign: z.string().min(1),
    expiresAt: isoDateTimeSchema,
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
  // a first request may wait for the lock holder's login (AUTHORITY_TIMEOUT_MS) and its own
  timeoutMs: 65_000,
});
