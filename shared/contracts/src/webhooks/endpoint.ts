import { z } from "zod";
import { defineContract } from "../contract.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";

/**
 * The events an endpoint may subscribe to; `*` is every one, present and future. The
 * deliveries of each will be named after the bus event they come from.
 */
export const WEBHOOK_EVENTOS = [
  "comprobante.autorizado",
  "comprobante.rechazado",
  "comprobante.no_emitido",
  "comprobante.caea_informado",
  "comprobante.caea_rechazado",
  "caea.no_obtenido",
  "email.enviado",
  "email.fallido",
  "cobro.pagado",
  "certificado.por_vencer",
  "certificado.vencido",
  "cuota.alerta",
  "*",
] as const;
export const webhookEventoSchema = z.enum(WEBHOOK_EVENTOS);
export type WebhookEvento = z.output<typeof webhookEventoSchema>;

/** How many endpoints one account may register (the catalogue's WEBHOOK_LIMIT_REACHED says it). */
export const WEBHOOKS_PER_ACCOUNT_MAX = 20;
export const WEBHOOK_URL_MAX = 2048;

/**
 * An absolute http(s) address without credentials, checked for its shape only: whether its host
 * may be called is the webhooks service's to decide (it resolves it).
 */
export const webhookUrlSchema = z
  .string()
  .trim()
  .max(WEBHOOK_URL_MAX)
  .superRefine((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: "custom", message: "debe ser una URL absoluta (https://…)" });
      return;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      ctx.addIssue({ code: "custom", message: "debe ser una URL https:// (o http://)" });
    } else if (url.username !== "" || url.password !== "") {
      ctx.addIssue({
        code: "custom",
        message: "no puede incluir usuario ni contraseña (usuario:clave@)",
      });
    }
  })
  .meta({ format: "uri", maxLength: WEBHOOK_URL_MAX })
  .describe("Dirección https (o http) que recibirá los eventos, sin credenciales");

/** At least one event; repeated ones are kept once. */
export const webhookEventosSchema = z
  .array(webhookEventoSchema)
  .min(1)
  .max(WEBHOOK_EVENTOS.length * 2)
  .transform((eventos) => [...new Set(eventos)])
  .describe('Eventos a recibir; "*" son todos');

export const webhookDescripcionSchema = z.string().trim().max(500);

/** An endpoint as the API shows it: never its secret. */
export const webhookSchema = z
  .object({
    id: idSchema,
    url: z.string(),
    eventos: z.array(webhookEventoSchema),
    descripcion: z.string().nullable(),
    activo: z.boolean(),
    fallandoDesde: isoDateTimeSchema
      .nullable()
      .describe("Desde cuándo fallan sin interrupción sus entregas; null si responde"),
    desactivadoAt: isoDateTimeSchema
      .nullable()
      .describe("Cuándo el servicio lo desactivó por fallar durante toda la ventana"),
    desactivadoMotivo: z.string().nullable().describe("Por qué el servicio lo desactivó"),
    createdAt: isoDateTimeSchema,
    updatedAt: isoDateTimeSchema,
  })
  .strict();
export type Webhook = z.output<typeof webhookSchema>;

/** The signing secret, Standard Webhooks format: `whsec_` and the base64 of 32 random bytes. */
export const webhookSecretoSchema = z
  .string()
  .regex(/^whsec_[A-Za-z0-9+/]{43}=$/)
  .describe("Secreto de firma: se muestra solo ahora; guardalo");

export const webhookInputSchema = z
  .object({
    url: webhookUrlSchema,
    eventos: webhookEventosSchema,
    descripcion: webhookDescripcionSchema.optional(),
  })
  .strict();
export type WebhookInput = z.output<typeof webhookInputSchema>;

/** A partial update: absent keeps, null clears the description; at least one field. */
export const webhookChangesSchema = z
  .object({
    url: webhookUrlSchema.optional(),
    eventos: webhookEventosSchema.optional(),
    descripcion: webhookDescripcionSchema.nullable().optional(),
    activo: z.boolean().optional(),
  })
  .strict()
  .refine((changes) => Object.keys(changes).length > 0, {
    error: "debe incluir al menos un campo a modificar",
  })
  .meta({ minProperties: 1 });
export type WebhookChanges = z.output<typeof webhookChangesSchema>;

const idRequest = z.object({ id: z.string().max(100) }).strict();

/**
 * `webhooks.endpoint.create` (POST /api/webhooks): registers an endpoint of the account in the
 * `account-id` header with a new signing secret, answered once.
 */
export const endpointCreate = defineContract({
  subject: "webhooks.endpoint.create",
  request: webhookInputSchema,
  reply: webhookSchema.extend({ secreto: webhookSecretoSchema }).strict(),
  errors: ["INVALID_FIELD", "UNAUTHORIZED", "WEBHOOK_LIMIT_REACHED"],
  needsAccount: true,
});

/** `webhooks.endpoint.list`: the account's endpoints, oldest first. */
export const endpointList = defineContract({
  subject: "webhooks.endpoint.list",
  request: z.object({}).strict(),
  reply: z.object({ items: z.array(webhookSchema) }).strict(),
  errors: [],
  needsAccount: true,
});

/** `webhooks.endpoint.get`: unknown, malformed and another account's ids answer alike. */
export const endpointGet = defineContract({
  subject: "webhooks.endpoint.get",
  request: idRequest,
  reply: webhookSchema,
  errors: ["WEBHOOK_NOT_FOUND"],
  needsAccount: true,
});

/** `webhooks.endpoint.update`: applies `changes` and answers the endpoint. */
export const endpointUpdate = defineContract({
  subject: "webhooks.endpoint.update",
  request: z.object({ id: z.string().max(100), changes: webhookChangesSchema }).strict(),
  reply: webhookSchema,
  errors: ["INVALID_FIELD", "WEBHOOK_NOT_FOUND"],
  needsAccount: true,
});

/** `webhooks.endpoint.delete`: removes the endpoint and its secrets for good. */
export const endpointDelete = defineContract({
  subject: "webhooks.endpoint.delete",
  request: idRequest,
  reply: z.object({ id: idSchema }).strict(),
  errors: ["WEBHOOK_NOT_FOUND"],
  needsAccount: true,
});

/**
 * `webhooks.secreto.rotate`: a new signing secret, answered once; the one it replaces keeps
 * signing beside it until `anteriorVenceAt`, so receivers can switch without losing events.
 */
export const secretoRotate = defineContract({
  subject: "webhooks.secreto.rotate",
  request: idRequest,
  reply: z
    .object({
      id: idSchema,
      secreto: webhookSecretoSchema,
      anteriorVenceAt: isoDateTimeSchema.describe(
        "Hasta cuándo el secreto anterior sigue firmando junto al nuevo (24 h)",
      ),
    })
    .strict(),
  errors: ["WEBHOOK_NOT_FOUND"],
  needsAccount: true,
});
