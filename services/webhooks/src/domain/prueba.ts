import { webhooks } from "@pasarela/contracts";
import { payloadId } from "./payload.js";

/** What a receiver gets in the body of a test event. */
export interface PruebaPayload {
  /** the `webhook-id` too: a new one on every test asked for */
  readonly id: string;
  readonly tipo: typeof webhooks.WEBHOOK_PRUEBA_TIPO;
  readonly createdAt: string;
  readonly data: { readonly webhookId: string; readonly mensaje: string };
}

export const PRUEBA_MENSAJE =
  "Evento de prueba de la pasarela: si lo recibiste y verificaste su firma, tu webhook funciona";

/**
 * The test event for one endpoint. `eventId` is the stored event's id (one per test asked
 * for); the payload's id derives from it as every event's does, so it has the same shape.
 */
export function pruebaPayload(eventId: string, webhookId: string, createdAt: Date): PruebaPayload {
  return {
    id: payloadId(eventId),
    tipo: webhooks.WEBHOOK_PRUEBA_TIPO,
    createdAt: createdAt.toISOString(),
    data: { webhookId, mensaje: PRUEBA_MENSAJE },
  };
}
