import { z } from "zod";
import { CUIT_FORMAT, isValidCuit } from "../common/cuit.js";
import { environmentSchema, representadaSchema } from "../common/fields.js";

// Messages complete "El campo <field> …" (the edge and the bus prefix the field's name).
const idPersonaProblem =
  "debe ser una CUIT o CUIL de 11 dígitos, sin guiones, con dígito verificador válido";
const documentoProblem = "debe ser un número de documento: solo dígitos, sin puntos, hasta 11";

const required =
  (otherwise: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? "es obligatorio" : otherwise;

/**
 * The key asked for: text or number, always answered as 11-digit text. A key with a wrong
 * check digit is refused here (400) rather than sent: the registry only holds valid keys.
 */
export const idPersonaSchema = z
  .union([z.string(), z.number()], { error: required(idPersonaProblem) })
  .transform((value) => String(value).trim())
  .pipe(
    z
      .string()
      .regex(/^\d{11}$/, idPersonaProblem)
      .refine(isValidCuit, { error: idPersonaProblem }),
  )
  .meta({
    description: "CUIT o CUIL consultada: 11 dígitos, sin guiones, con dígito verificador válido",
    examples: ["30712345671"],
    // as read: text (spaces around it aside) or a JSON integer
    anyOf: [
      // the registry reads the key as a number: a leading zero leaves it short of 11 digits
      { type: "string", pattern: "^\\s*[1-9]\\d{10}\\s*$", format: CUIT_FORMAT },
      { type: "integer", minimum: 10_000_000_000, maximum: 99_999_999_999 },
    ],
  });

/** An identity document number (DNI): leading zeros carry no meaning and are dropped. */
export const documentoSchema = z
  .union([z.string(), z.number()], { error: required(documentoProblem) })
  .transform((value) => String(value).trim())
  .pipe(
    z
      .string()
      .regex(/^\d{1,11}$/, documentoProblem)
      .transform((digits) => digits.replace(/^0+(?=\d)/, "")),
  )
  .meta({
    description: "Número de documento (DNI), solo dígitos",
    examples: ["25111222"],
    anyOf: [
      { type: "string", pattern: "^\\s*\\d{1,11}\\s*$" },
      { type: "integer", minimum: 0, maximum: 99_999_999_999 },
    ],
  });

/** The common fields and the person asked for: the body of /api/padron/a13, /a10, /constancia. */
export const byIdRequestSchema = z
  .object({
    environment: environmentSchema,
    representada: representadaSchema,
    idPersona: idPersonaSchema,
  })
  .strict();

/** The body of /api/padron/documento. */
export const byDocumentoRequestSchema = z
  .object({
    environment: environmentSchema,
    representada: representadaSchema,
    documento: documentoSchema,
  })
  .strict();

/**
 * What a registry lookup may answer besides the bus's own codes: the 403s of the representada,
 * its certificate and its delegation of the service, the registry's 404s, and the authority's
 * failures (502).
 */
export const padronLookupErrors = [
  "REPRESENTADA_NOT_FOUND",
  "NO_ACTIVE_CERTIFICATE",
  "SERVICE_NOT_DELEGATED",
  "CERTIFICATE_ENVIRONMENT_MISMATCH",
  "REPRESENTADA_NOT_DELEGATED",
  "ACCESS_TICKET_PENDING",
  "AUTHORITY_UNAVAILABLE",
  "PERSONA_NOT_FOUND",
  "PERSONA_INACTIVA",
] as const;
