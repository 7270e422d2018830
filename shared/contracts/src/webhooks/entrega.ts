import { z } from "zod";
import { defineContract } from "../contract.js";
import { cursorSchema, limitSchema, pageOf } from "../catalog/fields.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";

export const ENTREGA_STATUSES = ["pending", "delivered", "failed"] as const;

/** One event's delivery to one endpoint: its attempts so far and what follows. */
export const entregaSchema = z
  .object({
    id: idSchema,
    eventoId: z
      .string()
      .describe(
        "id del evento: el header webhook-id y el campo id del cuerpo, igual en cada intento",
      ),
    tipo: z.string().describe("Evento entregado, p. ej. comprobante.autorizado"),
    status: z
      .enum(ENTREGA_STATUSES)
      .describe(
        "pending: por enviar o reintentar; delivered: el receptor respondió 2xx; failed: se reintentó 3 días sin éxito",
      ),
    intentos: z.number().int(),
    ultimoStatusCode: z
      .number()
      .int()
      .nullable()
      .describe("Status HTTP del último intento; null sin intentos o si no hubo respuesta"),
    ultimoError: z.string().nullable().describe("Por qué falló el último intento"),
    latenciaMs: z.number().int().nullable().describe("Duración del último intento"),
    proximoIntentoAt: isoDateTimeSchema
      .nullable()
      .describe("Cuándo se intenta de nuevo; null si ya se entregó o falló"),
    createdAt: isoDateTimeSchema,
    updatedAt: isoDateTimeSchema,
  })
  .strict();
export type Entrega = z.output<typeof entregaSchema>;

/**
 * `webhooks.entrega.list` (GET /api/webhooks/{id}/entregas): an endpoint's deliveries, newest
 * first, in pages; another account's endpoint answers like an unknown one.
 */
export const entregaList = defineContract({
  subject: "webhooks.entrega.list",
  request: z
    .object({ id: z.string().max(100), limit: limitSchema, cursor: cursorSchema.optional() })
    .strict(),
  reply: pageOf(entregaSchema),
  errors: ["INVALID_FIELD", "WEBHOOK_NOT_FOUND"],
  needsAccount: true,
});

/**
 * `webhooks.entrega.reenviar`: makes one delivery due now, whatever its state; it goes out
 * again with the same id and body.
 */
export const entregaReenviar = defineContract({
  subject: "webhooks.entrega.reenviar",
  request: z.object({ id: z.string().max(100), entregaId: z.string().max(100) }).strict(),
  reply: entregaSchema,
  errors: ["WEBHOOK_NOT_FOUND"],
  needsAccount: true,
});
