import { z } from "zod";
import { defineContract } from "../contract.js";
import { AUTHORITY_QUERY_TIMEOUT_MS } from "../common/authority-query.js";
import {
  environmentSchema,
  idSchema,
  isoDateTimeSchema,
  representadaSchema,
  webServiceSchema,
} from "../common/fields.js";
import { ptoVtaSchema } from "../wsfe/fields.js";
import { certificateCreate } from "./certificate-create.js";
import { aliasSchema, pemTextSchema } from "./fields.js";
import { perfilFields, perfilSchema } from "./perfil.js";
import { contingenciaSchema } from "./contingencia.js";

/*
 * The account's own view of its representadas (the HTTP API and the dashboard).
 * Every subject here acts for the account of the bus header and for nothing else: an id of
 * another account, an unknown id and a malformed one answer the same REPRESENTADA_ID_NOT_FOUND,
 * and the bus refuses a request without an account (UNAUTHORIZED). The operator's subjects
 * (`ticket.representada.create`, `ticket.certificate.create`, ...) stay the operator's.
 */

/** Any text: a malformed id is answered like an unknown one, never as a field error. */
const representadaIdSchema = z.string().min(1).max(200);

/**
 * What the dashboard shows of a certificate: `pendiente` while only the CSR exists, `activo`,
 * `por_vencer` when it ends in less than CERTIFICATE_EXPIRING_DAYS, `vencido` past notAfter.
 */
export const certificadoEstadoSchema = z.enum(["pendiente", "activo", "por_vencer", "vencido"]);
export type CertificadoEstado = z.infer<typeof certificadoEstadoSchema>;

/** Days before notAfter from which an active certificate is `por_vencer`. */
export const CERTIFICATE_EXPIRING_DAYS = 30;

export const representadaCuentaSchema = z
  .object({
    representadaId: idSchema,
    cuit: representadaSchema,
    environment: environmentSchema,
    /** the certificate's CN: what is delegated at the authority */
    alias: z.string(),
    ptoVta: z.number().int().nullable(),
    contingencia: contingenciaSchema,
    /** null only when no key or certificate was ever stored */
    certificado: z
      .object({
        estado: certificadoEstadoSchema,
        notBefore: isoDateTimeSchema.nullable(),
        notAfter: isoDateTimeSchema.nullable(),
      })
      .strict()
      .nullable(),
    createdAt: isoDateTimeSchema,
  })
  .strict();
export type RepresentadaCuenta = z.output<typeof representadaCuentaSchema>;

/** One representada with its issuer profile and, while pending, the CSR to submit. */
export const representadaDetalleSchema = representadaCuentaSchema
  .extend({
    perfil: perfilSchema,
    /** the pending CSR (PEM), to download again until the certificate is uploaded */
    csr: z.string().nullable(),
  })
  .strict();

/** `ticket.cuenta-representada.list`: the account's representadas, optionally of one environment. */
export const cuentaRepresentadaList = defineContract({
  subject: "ticket.cuenta-representada.list",
  request: z.object({ environment: environmentSchema.optional() }).strict(),
  reply: z.object({ representadas: z.array(representadaCuentaSchema) }).strict(),
  errors: [],
  timeoutMs: 5_000,
  needsAccount: true,
});

/** `ticket.cuenta-representada.get`: one representada of the account, by id. */
export const cuentaRepresentadaGet = defineContract({
  subject: "ticket.cuenta-representada.get",
  request: z.object({ representadaId: representadaIdSchema }).strict(),
  reply: representadaDetalleSchema,
  errors: ["REPRESENTADA_ID_NOT_FOUND"],
  timeoutMs: 5_000,
  needsAccount: true,
});

/**
 * `ticket.cuenta-representada.create`: registers a CUIT (check digit verified) for the account
 * in one environment, generating its key (kept sealed) and answering the CSR to submit.
 */
export const cuentaRepresentadaCreate = defineContract({
  subject: "ticket.cuenta-representada.create",
  request: z
    .object({
      cuit: representadaSchema,
      environment: environmentSchema,
      alias: aliasSchema.optional(),
      ptoVta: ptoVtaSchema.optional(),
    })
    .strict(),
  reply: representadaDetalleSchema.extend({ csr: z.string() }).strict(),
  errors: ["INVALID_CUIT", "REPRESENTADA_DUPLICATE", "REPRESENTADA_ID_NOT_FOUND"],
  timeoutMs: 20_000,
  needsAccount: true,
});

/**
 * `ticket.cuenta-representada.update`: the point of sale used when a query omits it and the
 * issuer profile's fields sent (null clears one); answers the whole representada.
 */
export const cuentaRepresentadaUpdate = defineContract({
  subject: "ticket.cuenta-representada.update",
  request: z
    .object({
      representadaId: representadaIdSchema,
      ptoVta: ptoVtaSchema.nullable().optional(),
      razonSocial: perfilFields.razonSocial.nullable().optional(),
      domicilioComercial: perfilFields.domicilioComercial.nullable().optional(),
      condicionIva: perfilFields.condicionIva.nullable().optional(),
      ingresosBrutos: perfilFields.ingresosBrutos.nullable().optional(),
      inicioActividades: perfilFields.inicioActividades.nullable().optional(),
      logo: perfilFields.logo.nullable().optional(),
      email: perfilFields.email.nullable().optional(),
      contingencia: contingenciaSchema.optional(),
    })
    .strict(),
  reply: representadaDetalleSchema,
  errors: ["REPRESENTADA_ID_NOT_FOUND", "LOGO_INVALID"],
  timeoutMs: 5_000,
  needsAccount: true,
});

/**
 * `ticket.cuenta-certificado.create`: the certificate the authority issued for the pending CSR,
 * or an outside certificate with its private key (the pending CSR is then cancelled). A CSR in
 * place of the certificate, a certificate of another key, an unreadable key are refused; a
 * certificate of the other environment's CA is stored with a `warning`.
 */
export const cuentaCertificadoCreate = defineContract({
  subject: "ticket.cuenta-certificado.create",
  request: z
    .object({
      representadaId: representadaIdSchema,
      certificate: pemTextSchema,
      privateKey: pemTextSchema.optional(),
    })
    .strict(),
  reply: certificateCreate.reply,
  errors: [
    "REPRESENTADA_ID_NOT_FOUND",
    "CERTIFICATE_NOT_PEM",
    "CERTIFICATE_IS_CSR",
    "CERTIFICATE_KEY_MISMATCH",
    "CERTIFICATE_EXPIRED",
    "CERTIFICATE_NOT_YET_VALID",
    "PRIVATE_KEY_INVALID",
    "CERTIFICATE_NEEDS_KEY",
  ],
  timeoutMs: 10_000,
  needsAccount: true,
});

/** One web service's outcome in a connection probe. */
export const conexionServicioSchema = z.discriminatedUnion("ok", [
  z.object({ service: webServiceSchema, ok: z.literal(true) }).strict(),
  z
    .object({
      service: webServiceSchema,
      ok: z.literal(false),
      /** the catalogue code the same failure has on an API call */
      code: z.string(),
      /** the catalogue message, exactly as an API call would answer it */
      error: z.string(),
      /** what to do, and where, so that the service works */
      fix: z.string(),
    })
    .strict(),
]);
export type ConexionServicio = z.output<typeof conexionServicioSchema>;

/**
 * `ticket.conexion.verify` ("probar conexión"): obtains an access ticket for every web service
 * (each is delegated on its own), reusing a valid stored one, and checks that the representada
 * is among the ticket's relations. Answers each service's outcome; a probe never fails as a
 * whole for one service's refusal.
 */
export const conexionVerify = defineContract({
  subject: "ticket.conexion.verify",
  request: z.object({ representadaId: representadaIdSchema }).strict(),
  reply: z
    .object({
      representadaId: idSchema,
      cuit: representadaSchema,
      environment: environmentSchema,
      alias: z.string(),
      ok: z.boolean().describe("true when every service answered"),
      servicios: z.array(conexionServicioSchema),
    })
    .strict(),
  errors: ["REPRESENTADA_ID_NOT_FOUND", "NO_ACTIVE_CERTIFICATE"],
  timeoutMs: AUTHORITY_QUERY_TIMEOUT_MS,
  needsAccount: true,
});
