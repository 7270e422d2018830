import { ENVIRONMENTS, WEB_SERVICES } from "@pasarela/errors";
import { z } from "zod";

export type { Environment, WebService } from "@pasarela/errors";

/**
 * The two worlds of the authority; anything else is a 400. `missing` words its
 * absence where a body needs it only in one of its forms.
 */
export const environmentField = (missing = "es obligatorio") =>
  z.enum(ENVIRONMENTS, {
    error: (issue) =>
      issue.input === undefined ? missing : 'debe ser "homologacion" o "produccion"',
  });
export const environmentSchema = environmentField();

/** 11 digits, no hyphens; `missing` as for `environmentField`. */
export const representadaField = (missing = "es obligatorio") =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined ? missing : "debe ser un texto de 11 dígitos, sin guiones",
    })
    .regex(/^\d{11}$/, "debe tener exactamente 11 dígitos, sin guiones");
export const representadaSchema = representadaField();

/** WSAA service ids a certificate can be delegated for. */
export const webServiceSchema = z.enum(WEB_SERVICES);

export const idSchema = z.uuid();
export const isoDateTimeSchema = z.iso.datetime({ offset: true });

/** Every service answers this on `<service>.health.get`; /readyz asks each one. */
export const healthReplySchema = z.object({
  service: z.string(),
  version: z.string(),
  instance: z.string(),
});
