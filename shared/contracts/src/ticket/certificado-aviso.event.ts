import { z } from "zod";
import { defineEvent } from "../contract.js";
import {
  environmentSchema,
  idSchema,
  isoDateTimeSchema,
  representadaSchema,
} from "../common/fields.js";

/** Days before a certificate's `notAfter` at which its expiry is announced, widest first. */
export const CERTIFICADO_AVISO_DIAS = [30, 7, 1] as const;
export type CertificadoAvisoDias = (typeof CERTIFICADO_AVISO_DIAS)[number];

const certificadoAvisoFields = {
  version: z.literal(1),
  certificateId: idSchema,
  representadaId: idSchema,
  accountId: idSchema,
  cuit: representadaSchema,
  environment: environmentSchema,
  /** the certificate's serial number, upper-case hex as X.509 tools print it */
  serialNumber: z.string(),
  /** SHA-256 of the certificate's DER, lower-case hex */
  fingerprint: z.string(),
  notAfter: isoDateTimeSchema,
  /** whole days left when announced (0 or less once expired) */
  diasRestantes: z.number().int(),
  occurredAt: isoDateTimeSchema,
};

/**
 * `evt.ticket.certificado.por_vencer`: a representada's active certificate has `umbral` days
 * or fewer left. Announced once per certificate and threshold (the id is
 * `<certificate>:por_vencer:<umbral>`), by the ticket service's periodic check; a certificate
 * first seen closer to expiry announces only the tightest threshold it reached.
 */
export const certificadoPorVencer = defineEvent({
  subject: "evt.ticket.certificado.por_vencer",
  version: 1,
  schema: z
    .object({
      id: z.string(),
      ...certificadoAvisoFields,
      umbral: z.union([z.literal(30), z.literal(7), z.literal(1)]),
    })
    .strict(),
});

/**
 * `evt.ticket.certificado.vencido`: a representada's active certificate passed its
 * `notAfter`; the authority refuses every login with it. Once per certificate (the id is
 * `<certificate>:vencido`).
 */
export const certificadoVencido = defineEvent({
  subject: "evt.ticket.certificado.vencido",
  version: 1,
  schema: z.object({ id: z.string(), ...certificadoAvisoFields }).strict(),
});
