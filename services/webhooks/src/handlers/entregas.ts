import type { Handler } from "@pasarela/bus";
import { webhooks } from "@pasarela/contracts";
import { appError, fail, invalidCursor, ok } from "@pasarela/errors";
import type { EntregaPosition, EntregaRow } from "../db/repositories/entregas.js";
import { isRecordId } from "../domain/ids.js";
import type { WebhookPayload } from "../domain/payload.js";
import type { HandlerDeps } from "./deps.js";

const entregaOf = (row: EntregaRow): webhooks.Entrega => ({
  id: row.id,
  eventoId: (row.payload as WebhookPayload).id,
  tipo: row.tipo,
  status: row.status,
  intentos: row.attempts,
  ultimoStatusCode: row.last_status_code,
  ultimoError: row.last_error,
  latenciaMs: row.latency_ms,
  proximoIntentoAt: row.status === "pending" ? (row.next_attempt_at?.toISOString() ?? null) : null,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

const positionText = (p: EntregaPosition): string => JSON.stringify([p.createdAt, p.id]);

/** The position a cursor holds, or undefined for text this service did not write. */
function parsePosition(text: string): EntregaPosition | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === "string" &&
      !Number.isNaN(Date.parse(value[0])) &&
      typeof value[1] === "string" &&
      isRecordId(value[1])
    ) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // not JSON
  }
  return undefined;
}

/** `webhooks.entrega.list`: the cursor is sealed to the account, this list and its endpoint. */
export function makeEntregaList({
  endpoints,
  entregas,
  cursors,
}: HandlerDeps): Handler<typeof webhooks.entregaList> {
  return async ({ id, limit, cursor: given }, ctx) => {
    if (!isRecordId(id) || !(await endpoints.find(ctx.accountId, id))) {
      return fail(appError("WEBHOOK_NOT_FOUND"));
    }
    const scope = {
      list: webhooks.entregaList.subject,
      accountId: ctx.accountId,
      filters: { id },
    };
    const opened = given === undefined ? undefined : cursors.read(scope, given);
    const after = opened === undefined ? undefined : parsePosition(opened);
    if (given !== undefined && !after) return fail(invalidCursor());
    const rows = await entregas.list(ctx.accountId, id, limit, after);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return ok({
      items: page.map(entregaOf),
      nextCursor:
        rows.length > limit && last
          ? cursors.issue(
              scope,
              positionText({ createdAt: last.created_at.toISOString(), id: last.id }),
            )
          : null,
    });
  };
}

/** `webhooks.entrega.reenviar`: another account's ids answer like unknown ones. */
export function makeEntregaReenviar({
  entregas,
  wake,
}: HandlerDeps): Handler<typeof webhooks.entregaReenviar> {
  return async ({ id, entregaId }, ctx) => {
    const row =
      isRecordId(id) && isRecordId(entregaId)
        ? await entregas.requeue(ctx.accountId, id, entregaId)
        : undefined;
    if (!row) return fail(appError("WEBHOOK_NOT_FOUND"));
    ctx.logger.info({ webhookId: id, entregaId }, "webhook delivery re-queued");
    wake();
    return ok(entregaOf(row));
  };
}
