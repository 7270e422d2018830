import { ENVIRONMENTS, WEB_SERVICES } from "@pasarela/errors";
import { z } from "zod";

export type { Environment, WebService } from "@pasarela/errors";

/** Spec §2.1: the two worlds of the authority; anything else is a 400. */
export const environmentSchema = z.enum(ENVIRONMENTS, {
  error: (issue) =>
    issue.input === undefined ? "es obligatorio" : 'debe ser "homologacion" o "produccion"',
});

/** Spec §2.1: 11 digits, no hyphens. */
export const representadaSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined ? "es obligatorio" : "debe ser un texto de 11 dígitos, sin guiones",
  })
  .regex(/^\d{11}$/, "debe tener exactamente 11 dígitos, sin guiones");

/** WSAA service ids a certificate can be delegated for (spec §5.9). */
export const webServiceSchema = z.enum(WEB_SERVICES);

export const idSchema = z.uuid();
export const isoDateTimeSchema = z.iso.datetime({ offset: true });

/** Every service answers this on `<service>.health.get`; /readyz asks each one. */
export const healthReplySchema = z.object({
  service: z.string(),
  version: z.string(),
  instance: z.string(),
});
