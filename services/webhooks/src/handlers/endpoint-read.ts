import type { Handler } from "@pasarela/bus";
import type { webhooks } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import { isRecordId } from "../domain/ids.js";
import type { HandlerDeps } from "./deps.js";

export function makeEndpointList({
  endpoints,
}: HandlerDeps): Handler<typeof webhooks.endpointList> {
  return async (_input, ctx) => ok({ items: await endpoints.list(ctx.accountId) });
}

export function makeEndpointGet({ endpoints }: HandlerDeps): Handler<typeof webhooks.endpointGet> {
  return async ({ id }, ctx) => {
    const endpoint = isRecordId(id) ? await endpoints.find(ctx.accountId, id) : undefined;
    return endpoint ? ok(endpoint) : fail(appError("WEBHOOK_NOT_FOUND"));
  };
}
