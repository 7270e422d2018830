import { randomUUID } from "node:crypto";
import type { Handler } from "@pasarela/bus";
import type { webhooks } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import { isRecordId } from "../domain/ids.js";
import { pruebaPayload } from "../domain/prueba.js";
import type { HandlerDeps } from "./deps.js";

/**
 * `webhooks.prueba.enviar`: a new test event for one endpoint, queued as any delivery and
 * sent at once. Another account's ids answer like unknown ones.
 */
export function makePruebaEnviar({
  pruebas,
  now,
  wake,
}: HandlerDeps): Handler<typeof webhooks.pruebaEnviar> {
  return async ({ id }, ctx) => {
    if (!isRecordId(id)) return fail(appError("WEBHOOK_NOT_FOUND"));
    const entregaId = randomUUID();
    const eventId = `prueba:${randomUUID()}`;
    const payload = pruebaPayload(eventId, id, now());
    const queued = await pruebas.enqueue(ctx.accountId, id, entregaId, eventId, payload);
    if (queued === undefined) return fail(appError("WEBHOOK_NOT_FOUND"));
    if (queued === "inactive") return fail(appError("WEBHOOK_INACTIVE"));
    ctx.logger.info({ webhookId: id, entregaId }, "webhook test event queued");
    wake();
    return ok({ entregaId, eventoId: payload.id });
  };
}
