import { z } from "zod";

/** Spec §2.1: the two worlds of the authority; anything else is a 400. */
export const environmentSchema = z.enum(["homologacion", "produccion"], {
  error: (issue) =>
    issue.input === undefined ? "es obligatorio" : 'debe ser "homologacion" o "produccion"',
});
export type Environment = z.infer<typeof environmentSchema>;

/** Spec §2.1: 11 digits, no hyphens. */
export const representadaSchema = z
  .string({
    error: (issue) =>
      issue.input === undefined ? "es obligatorio" : "debe ser un texto de 11 dígitos, sin guiones",
  })
  .regex(/^\d{11}$/, "debe tener exactamente 11 dígitos, sin guiones");

/** WSAA service ids a certificate can be delegated for (spec §5.9). */
export const webServiceSchema = z.enum([
  "wsfe",
  "wsfex",
  "ws_sr_padron_a13",
  "ws_sr_padron_a10",
  "ws_sr_constancia_inscripcion",
]);
export type WebService = z.infer<typeof webServiceSchema>;

export const idSchema = z.uuid();
export const isoDateTimeSchema = z.iso.datetime({ offset: true });

/** Every service answers this on `<service>.health.get`; /readyz asks each one. */
export const healthReplySchema = z.object({
  service: z.string(),
  version: z.string(),
  instance: z.string(),
});
