import { z } from "zod";
import { defineContract } from "../contract.js";
import { emailSchema } from "../catalog/fields.js";
import { environmentSchema, idSchema, representadaSchema } from "../common/fields.js";

/** The largest logo printed on the vouchers: 200 KB of PNG or JPEG. */
export const LOGO_MAX_BYTES = 200 * 1024;

export const logoSchema = z
  .object({
    mediaType: z.enum(["image/png", "image/jpeg"]),
    /**
     * the image in standard base64; the bound only keeps a stray file off the bus, the
     * 200 KB rule is LOGO_INVALID's
     */
    data: z.base64().max(2 * LOGO_MAX_BYTES),
  })
  .strict();
export type Logo = z.output<typeof logoSchema>;

const fechaProblem = 'debe ser una fecha AAAAMMDD (p. ej. "20190301")';

/**
 * What the printed voucher says of its issuer (the representada): razón social, domicilio
 * comercial, condición frente al IVA, Ingresos Brutos, inicio de actividades and a logo.
 * Every field may be missing: a voucher prints with what is known.
 */
export const perfilFields = {
  razonSocial: z.string().trim().min(1).max(200),
  domicilioComercial: z.string().trim().min(1).max(300),
  condicionIva: z.string().trim().min(1).max(80),
  ingresosBrutos: z.string().trim().min(1).max(40),
  inicioActividades: z.string().regex(/^\d{8}$/, fechaProblem),
  logo: logoSchema,
  /** where replies to the vouchers' e-mails go */
  email: emailSchema,
};

export const perfilSchema = z
  .object({
    razonSocial: perfilFields.razonSocial.nullable(),
    domicilioComercial: perfilFields.domicilioComercial.nullable(),
    condicionIva: perfilFields.condicionIva.nullable(),
    ingresosBrutos: perfilFields.ingresosBrutos.nullable(),
    inicioActividades: perfilFields.inicioActividades.nullable(),
    logo: perfilFields.logo.nullable(),
    email: perfilFields.email.nullable(),
  })
  .strict();
export type Perfil = z.output<typeof perfilSchema>;

/** A logo named by the SHA-256 of its bytes (lowercase hex): ticket keeps every one uploaded. */
export const emisorLogoSchema = z
  .object({
    mediaType: logoSchema.shape.mediaType,
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .strict();

/**
 * The issuer as a voucher prints it, copied from the profile when the voucher is issued so
 * that every copy and every later print shows the same issuer. The logo is named, not
 * carried: its bytes are asked of ticket (`ticket.logo.get`) when printing. The fields keep
 * whatever the profile held, so they are plain text here.
 */
export const emisorSchema = z
  .object({
    razonSocial: z.string().nullable(),
    domicilioComercial: z.string().nullable(),
    condicionIva: z.string().nullable(),
    ingresosBrutos: z.string().nullable(),
    inicioActividades: z.string().nullable(),
    logo: emisorLogoSchema.nullable(),
  })
  .strict();
export type Emisor = z.output<typeof emisorSchema>;

/**
 * `ticket.perfil.set` (operator, `representada profile`): changes the fields sent (null
 * clears one) and answers the whole profile. A logo that is not a PNG or JPEG of at most
 * 200 KB is LOGO_INVALID.
 */
export const perfilSet = defineContract({
  subject: "ticket.perfil.set",
  request: z
    .object({
      representadaId: idSchema,
      razonSocial: perfilFields.razonSocial.nullable().optional(),
      domicilioComercial: perfilFields.domicilioComercial.nullable().optional(),
      condicionIva: perfilFields.condicionIva.nullable().optional(),
      ingresosBrutos: perfilFields.ingresosBrutos.nullable().optional(),
      inicioActividades: perfilFields.inicioActividades.nullable().optional(),
      logo: perfilFields.logo.nullable().optional(),
      email: perfilFields.email.nullable().optional(),
    })
    .strict(),
  reply: z
    .object({
      representadaId: idSchema,
      cuit: representadaSchema,
      environment: environmentSchema,
      perfil: perfilSchema,
    })
    .strict(),
  errors: ["REPRESENTADA_NOT_FOUND", "LOGO_INVALID"],
  timeoutMs: 5_000,
});

/**
 * `ticket.perfil.get`: the issuer profile of the account's (bus header) representada, or
 * null when none was set. Another account's CUIT answers like an unknown one.
 */
export const perfilGet = defineContract({
  subject: "ticket.perfil.get",
  request: z.object({ cuit: representadaSchema, environment: environmentSchema }).strict(),
  reply: z.object({ perfil: perfilSchema.nullable() }).strict(),
  errors: ["REPRESENTADA_NOT_FOUND"],
  timeoutMs: 5_000,
  needsAccount: true,
});

/**
 * `ticket.logo.get`: a logo the account's representada had, by the SHA-256 of its bytes; null
 * when it never had that one. A logo replaced in the profile is still answered, so a voucher
 * issued with it prints it.
 */
export const logoGet = defineContract({
  subject: "ticket.logo.get",
  request: z
    .object({
      cuit: representadaSchema,
      environment: environmentSchema,
      sha256: emisorLogoSchema.shape.sha256,
    })
    .strict(),
  reply: z.object({ representadaId: idSchema, logo: logoSchema.nullable() }).strict(),
  errors: ["REPRESENTADA_NOT_FOUND"],
  timeoutMs: 5_000,
  needsAccount: true,
});
