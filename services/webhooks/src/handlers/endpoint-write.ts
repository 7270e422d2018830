import { randomUUID } from "node:crypto";
import type { Handler } from "@pasarela/bus";
import { webhooks } from "@pasarela/contracts";
import { appError, fail, invalidField, ok } from "@pasarela/errors";
import { normalizeEventos } from "../domain/eventos.js";
import { isRecordId } from "../domain/ids.js";
import { newSecreto } from "../domain/secreto.js";
import type { HandlerDeps } from "./deps.js";

export function makeEndpointCreate({
  endpoints,
  urlProblem,
}: HandlerDeps): Handler<typeof webhooks.endpointCreate> {
  return async (input, ctx) => {
    const problem = await urlProblem(input.url);
    if (problem) return fail(invalidField("url", problem));
    const secreto = newSecreto();
    const created = await endpoints.insert(
      ctx.accountId,
      {
        id: randomUUID(),
        url: input.url,
        eventos: normalizeEventos(input.eventos),
        descripcion: input.descripcion || null,
        secreto,
      },
      webhooks.WEBHOOKS_PER_ACCOUNT_MAX,
    );
    if (created === "limit") return fail(appError("WEBHOOK_LIMIT_REACHED"));
    ctx.logger.info({ webhookId: created.id, eventos: created.eventos }, "webhook created");
    return ok({ ...created, secreto });
  };
}

export function makeEndpointUpdate({
  endpoints,
  urlProblem,
}: HandlerDeps): Handler<typeof webhooks.endpointUpdate> {
  return async ({ id, changes }, ctx) => {
    // an unknown endpoint is answered as such before its new address is looked at
    if (!isRecordId(id) || !(await endpoints.find(ctx.accountId, id))) {
      return fail(appError("WEBHOOK_NOT_FOUND"));
    }
    if (changes.url !== undefined) {
      const problem = await urlProblem(changes.url);
      if (problem) return fail(invalidField("url", problem));
    }
    const updated = await endpoints.update(ctx.accountId, id, {
      ...(changes.url !== undefined ? { url: changes.url } : {}),
      ...(changes.eventos !== undefined ? { eventos: normalizeEventos(changes.eventos) } : {}),
      ...(changes.descripcion !== undefined ? { descripcion: changes.descripcion || null } : {}),
      ...(changes.activo !== undefined ? { activo: changes.activo } : {}),
    });
    if (!updated) return fail(appError("WEBHOOK_NOT_FOUND"));
    ctx.logger.info({ webhookId: id, changed: Object.keys(changes) }, "webhook updated");
    return ok(updated);
  };
}

export function makeEndpointDelete({
  endpoints,
}: HandlerDeps): Handler<typeof webhooks.endpointDelete> {
  return async ({ id }, ctx) => {
    const deleted = isRecordId(id) && (await endpoints.remove(ctx.accountId, id));
    if (!deleted) return fail(appError("WEBHOOK_NOT_FOUND"));
    ctx.logger.info({ webhookId: id }, "webhook deleted");
    return ok({ id });
  };
}
