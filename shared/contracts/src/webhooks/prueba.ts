import { z } from "zod";
import { defineContract } from "../contract.js";
import { idSchema } from "../common/fields.js";

/** The kind of a test event: never subscribed to, sent only when asked for. */
export const WEBHOOK_PRUEBA_TIPO = "webhook.prueba";

/**
 * `webhooks.prueba.enviar` (POST /api/webhooks/{id}/prueba): queues one delivery of a new
 * `webhook.prueba` event to that endpoint only, whatever it subscribes to; it is signed,
 * retried and logged as any other delivery. A paused endpoint is refused: its deliveries wait
 * until it is active again, so the test would prove nothing.
 */
export const pruebaEnviar = defineContract({
  subject: "webhooks.prueba.enviar",
  request: z.object({ id: z.string().max(100) }).strict(),
  reply: z
    .object({
      entregaId: idSchema.describe("id de la entrega: aparece en GET /api/webhooks/{id}/entregas"),
      eventoId: z
        .string()
        .describe(
          "id del evento: el header webhook-id y el campo id del cuerpo; nuevo en cada prueba",
        ),
    })
    .strict(),
  errors: ["WEBHOOK_NOT_FOUND", "WEBHOOK_INACTIVE"],
  needsAccount: true,
});
