import { randomUUID } from "node:crypto";
import type { AccountContext, Bus, Handler } from "@pasarela/bus";
import { billing, DEADLINE_SLACK_MS, wsfe } from "@pasarela/contracts";
import { appError, fail, ok, readOnlyKey, type Result } from "@pasarela/errors";
import type { EmisionRow, EmisionesRepository } from "../db/repositories/emisiones.js";
import type { VoucherIssueContext } from "../flows/voucher-issue.js";
import type { IssuanceCall, VoucherOf } from "../flows/factura-issue.js";

/** An asynchronous issuance as its lookups answer it. */
export function emisionView(row: EmisionRow): wsfe.EmisionAsync {
  const answer = wsfe.emisionAsyncSchema.shape.answer.safeParse(row.answer ?? undefined);
  return {
    id: row.id,
    tipo: row.tipo,
    environment: row.environment,
    estado: row.estado,
    idempotencyKey: row.idempotency_key,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    intentos: row.intentos,
    proximoIntento: row.estado === "pendiente" ? row.next_attempt_at.toISOString() : null,
    ...(answer.success && answer.data !== undefined ? { answer: answer.data } : {}),
  };
}

/** Judging an issuance's voucher with everything but the authority (voucher-issue.ts). */
type Judge<Req extends IssuanceCall> = (
  request: VoucherOf<Req>,
  ctx: Pick<VoucherIssueContext, "accountId" | "requestId" | "deadline">,
) => Promise<Result<void>>;

/** How long judging and admitting may take when the caller set no deadline. */
const ENQUEUE_BUDGET_MS = 12_000;

/**
 * `wsfe.factura.enqueue` and `wsfe.exportacion.enqueue`: an issuance asked for with
 * `Prefer: respond-async`. Under a key that already names a queued issuance, that issuance
 * (same body) or 422 (another). Otherwise the voucher is judged as the issuance would judge it
 * before the authority, then billing admits it (the key, the rejection cap, the quota): a key a
 * synchronous issuance already completed replays its answer; anything else is queued, bound to
 * the key, and carried out by the worker (async-issuance.ts).
 */
export function makeEmisionEnqueue<Req extends IssuanceCall & { cbteTipo: number }>(deps: {
  tipo: wsfe.EmisionTipo;
  bus: Pick<Bus, "request">;
  emisiones: Pick<EmisionesRepository, "byLlave" | "insert">;
  judge: Judge<Req>;
  /** the worker looks for due issuances now */
  queued: () => void;
  now?: () => number;
}): Handler<typeof wsfe.facturaEnqueue> {
  const now = deps.now ?? Date.now;
  return async (raw, ctx: AccountContext) => {
    const request = raw as unknown as Req;
    if (request.keyScope !== "read_write") return fail(readOnlyKey("emision"));
    const accountId = ctx.accountId;
    const key = request.idempotencyKey;
    const existing = key === undefined ? undefined : await deps.emisiones.byLlave(accountId, key);
    if (existing) {
      if (existing.tipo !== deps.tipo || existing.fingerprint !== (request.fingerprint ?? "")) {
        return fail(appError("IDEMPOTENCY_KEY_REUSED"));
      }
      return ok({ kind: "queued" as const, emision: emisionView(existing) });
    }

    const id = randomUUID();
    const deadline = ctx.deadline ?? now() + ENQUEUE_BUDGET_MS - DEADLINE_SLACK_MS;
    const headers = { accountId, requestId: id, deadline };
    const { fingerprint: _f, keyScope: _s, ...voucher } = request;
    const judged = await deps.judge(voucher, headers);
    if (!judged.ok) return judged;

    // without a key of the caller's, the issuance runs under one of its own
    const llave = key ?? `async:${id}`;
    const fingerprint = key === undefined ? id : (request.fingerprint ?? "");
    const admission = await deps.bus.request(
      billing.facturaAdmit,
      { environment: request.environment, idempotencyKey: llave, fingerprint },
      headers,
    );
    if (!admission.ok) return admission;
    if (admission.value.decision === "replay") {
      return ok({ kind: "replay" as const, answer: admission.value.answer });
    }
    const stored = { ...voucher, idempotencyKey: llave, fingerprint, keyScope: "read_write" };
    const row = await deps.emisiones.insert({
      id,
      accountId,
      environment: request.environment,
      tipo: deps.tipo,
      idempotencyKey: key ?? null,
      llave,
      fingerprint,
      request: stored,
      // a key an earlier synchronous attempt left open is settled by the first attempt
      admitted: admission.value.decision === "proceed",
    });
    // two calls under one key that both found it open: the one stored first is the issuance
    const emision = row ?? (await deps.emisiones.byLlave(accountId, llave));
    if (!emision) return fail(appError("INTERNAL"));
    deps.queued();
    return ok({ kind: "queued" as const, emision: emisionView(emision) });
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `wsfe.emision.get`: an asynchronous issuance of the account, of the kind asked for. */
export function makeEmisionGet(deps: {
  emisiones: Pick<EmisionesRepository, "byId">;
}): Handler<typeof wsfe.emisionGet> {
  return async ({ id, tipo }, ctx) => {
    const row = UUID.test(id) ? await deps.emisiones.byId(ctx.accountId, id) : undefined;
    if (!row || row.tipo !== tipo) return fail(appError("ASYNC_ISSUANCE_NOT_FOUND"));
    return ok(emisionView(row));
  };
}
