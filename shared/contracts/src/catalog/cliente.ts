import { z } from "zod";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";
import {
  condicionIvaReceptorIdSchema,
  cursorSchema,
  docNroSchema,
  docTipoSchema,
  domicilioSchema,
  emailSchema,
  limitSchema,
  razonSocialSchema,
  searchSchema,
} from "./fields.js";

/** A live customer as the API shows it: optional fields are always present, null when unset. */
export const clienteSchema = z
  .object({
    id: idSchema,
    docTipo: z.number().int().describe("Tipo de documento de la AFIP"),
    docNro: z.string().describe("Solo dígitos, sin ceros a la izquierda"),
    razonSocial: z.string(),
    condicionIvaReceptorId: z
      .number()
      .int()
      .nullable()
      .describe("null si no está cargada; la emisión la exige"),
    email: z.string().nullable(),
    domicilio: z.string().nullable(),
    createdAt: isoDateTimeSchema,
    updatedAt: isoDateTimeSchema,
  })
  .strict();
export type Cliente = z.output<typeof clienteSchema>;

/** The body of a new customer; `docTipo`+`docNro` must not belong to another live customer. */
export const clienteInputSchema = z
  .object({
    docTipo: docTipoSchema,
    docNro: docNroSchema,
    razonSocial: razonSocialSchema,
    condicionIvaReceptorId: condicionIvaReceptorIdSchema.nullable().optional(),
    email: emailSchema.nullable().optional(),
    domicilio: domicilioSchema.nullable().optional(),
  })
  .strict();
export type ClienteInput = z.output<typeof clienteInputSchema>;

/** A partial update: absent keeps, null clears an optional field; at least one field. */
export const clienteChangesSchema = z
  .object({
    docTipo: docTipoSchema.optional(),
    docNro: docNroSchema.optional(),
    razonSocial: razonSocialSchema.optional(),
    condicionIvaReceptorId: condicionIvaReceptorIdSchema.nullable().optional(),
    email: emailSchema.nullable().optional(),
    domicilio: domicilioSchema.nullable().optional(),
  })
  .strict()
  .refine((changes) => Object.keys(changes).length > 0, {
    error: "debe incluir al menos un campo a modificar",
  })
  .meta({ minProperties: 1 });
export type ClienteChanges = z.output<typeof clienteChangesSchema>;

/** List filters; `q` matches the name ignoring case and accents. */
export const clienteFilterSchema = z
  .object({
    limit: limitSchema,
    cursor: cursorSchema.optional(),
    docTipo: docTipoSchema.optional(),
    docNro: docNroSchema.optional(),
    q: searchSchema.optional(),
  })
  .strict();
export type ClienteFilter = z.output<typeof clienteFilterSchema>;
