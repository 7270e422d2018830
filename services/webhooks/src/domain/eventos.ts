import { webhooks } from "@pasarela/contracts";

/**
 * The events an endpoint receives: `*` stands for all, so a list with it is just `*` (one
 * stored form for one meaning); the rest in the catalogue's order, each once.
 */
export function normalizeEventos(
  eventos: readonly webhooks.WebhookEvento[],
): webhooks.WebhookEvento[] {
  if (eventos.includes("*")) return ["*"];
  return webhooks.WEBHOOK_EVENTOS.filter((evento) => eventos.includes(evento));
}

/** Whether an endpoint subscribed to `eventos` receives `evento`. */
export const subscribes = (eventos: readonly string[], evento: string): boolean =>
  eventos.includes("*") || eventos.includes(evento);
