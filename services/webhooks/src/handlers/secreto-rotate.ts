import type { Handler } from "@pasarela/bus";
import type { webhooks } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import { isRecordId } from "../domain/ids.js";
import { anteriorVence, newSecreto } from "../domain/secreto.js";
import type { HandlerDeps } from "./deps.js";

export function makeSecretoRotate({
  endpoints,
  now,
}: HandlerDeps): Handler<typeof webhooks.secretoRotate> {
  return async ({ id }, ctx) => {
    if (!isRecordId(id)) return fail(appError("WEBHOOK_NOT_FOUND"));
    const secreto = newSecreto();
    const anteriorVenceAt = anteriorVence(now());
    if (!(await endpoints.rotate(ctx.accountId, id, secreto, anteriorVenceAt))) {
      return fail(appError("WEBHOOK_NOT_FOUND"));
    }
    ctx.logger.info({ webhookId: id }, "webhook secret rotated");
    return ok({ id, secreto, anteriorVenceAt: anteriorVenceAt.toISOString() });
  };
}
