import { z } from "zod";
import { defineEvent } from "../contract.js";
import {
  environmentSchema,
  idSchema,
  isoDateTimeSchema,
  representadaSchema,
} from "../common/fields.js";

/**
 * `evt.ticket.certificado.activado`: a certificate became the only active one of a
 * representada (any previous one is now `replaced`). Published once the change is stored and
 * before the operator is answered; callers that keep access tickets (wsfe, wsfex) drop those
 * of (account, cuit, environment) on receipt, so the next query asks `ticket` and signs with
 * the new certificate. The id is the activated certificate's row: one event per activation.
 */
export const certificadoActivado = defineEvent({
  subject: "evt.ticket.certificado.activado",
  version: 1,
  schema: z.object({
    id: z.string(),
    version: z.literal(1),
    representadaId: idSchema,
    accountId: idSchema,
    cuit: representadaSchema,
    environment: environmentSchema,
    /** SHA-256 of the new certificate's DER, lower-case hex */
    fingerprint: z.string(),
    notAfter: isoDateTimeSchema,
    activatedAt: isoDateTimeSchema,
  }),
});
