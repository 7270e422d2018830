import type { AccountContext, Bus } from "@pasarela/bus";
import { wsfe } from "@pasarela/contracts";
import {
  appError,
  isErrorCode,
  isRetryable,
  kindOf,
  type AppError,
  type Result,
} from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type {
  ClaimedEmision,
  EmisionFinal,
  EmisionesRepository,
} from "../db/repositories/emisiones.js";
import { retryDelayMs } from "../domain/emision-async.js";
import type { IssuanceAnswer, IssuanceLifecycle } from "./factura-issue.js";

/** The two kinds of voucher the queue issues, each with its own call and lifecycle. */
export interface QueuedKinds {
  factura: IssuanceLifecycle<wsfe.FacturaIssueCall, wsfe.FacturaHttpReply>;
  exportacion: IssuanceLifecycle<wsfe.ExportacionIssueCall, wsfe.ExportacionHttpReply>;
}

export interface AsyncIssuanceDeps {
  emisiones: Pick<EmisionesRepository, "claim" | "finish" | "retryAt">;
  kinds: QueuedKinds;
  bus: Pick<Bus, "publish">;
  logger: Logger;
  /** ASYNC_ISSUANCE_MAX_AGE: from then on the queue only settles, never issues again */
  maxAgeMs: number;
  /** the longest wait between two attempts */
  retryMaxMs: number;
  /** how often due issuances are looked for without being told (other instances', retries) */
  pollMs: number;
  /** attempts running at once in this instance */
  concurrency: number;
  /** how long one attempt holds its issuance: longer than an issuance may take */
  leaseMs: number;
  now?: () => number;
  random?: () => number;
}

export interface AsyncIssuance {
  /** looks for due issuances now (one was just queued) */
  kick(): void;
  /** no further attempt starts; resolves once those under way have ended */
  stop(): Promise<void>;
}

/** The request an issuance was queued with, read back with its kind's contract. */
function storedCall(row: ClaimedEmision) {
  const schema =
    row.tipo === "factura" ? wsfe.facturaIssueCallSchema : wsfe.exportacionIssueCallSchema;
  const parsed = schema.safeParse(row.request);
  return parsed.success ? { ...parsed.data, idempotencyKey: row.llave } : undefined;
}

/** How an attempt's error ends it: waited through, or the issuance's end. */
function endOf(error: AppError): EmisionFinal | "retry" {
  if (!isErrorCode(error.code)) return "retry";
  if (kindOf(error.code) === "rejected") return "rechazado";
  return isRetryable(error.code) ? "retry" : "no_emitido";
}

const answerOf = (error: AppError) => ({
  code: error.code,
  message: error.message,
  ...(error.details === undefined ? {} : { details: error.details }),
});

/**
 * The asynchronous issuances' worker: takes due issuances from the queue (several instances
 * share it, each issuance leased to one attempt at a time) and carries each out with the
 * issuance's own lifecycle: the first attempt under the admission made when it was queued,
 * then retries, after waits that grow up to `retryMaxMs`, that settle whatever an earlier
 * attempt left open with the authority before issuing again. An answer, an authority
 * rejection or a refusal that waiting cannot mend ends it; past `maxAgeMs` it only settles,
 * and ends `no_emitido` once nothing under its key was issued. Each end is published as
 * `evt.wsfe.emision.finalizada` before it is stored.
 */
export function startAsyncIssuance(deps: AsyncIssuanceDeps): AsyncIssuance {
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const running = new Set<Promise<void>>();
  let stopped = false;
  let looking: Promise<void> | undefined;
  let again = false;

  async function attempt(row: ClaimedEmision): Promise<void> {
    const logger = deps.logger.child({ emisionId: row.id, intento: row.intentos });
    const request = storedCall(row);
    if (request === undefined) {
      // a row this code cannot read back is a defect of ours: it ends rather than loops
      logger.error("queued issuance unreadable");
      await end(row, "no_emitido", { kind: "error", error: answerOf(appError("INTERNAL")) });
      return;
    }
    // the first attempt's request id is the one billing admitted it under
    const requestId = row.intentos <= 1 ? row.id : `${row.id}.${row.intentos}`;
    const ctx: AccountContext = {
      accountId: row.account_id,
      requestId,
      deadline: undefined,
      subject: row.tipo === "factura" ? wsfe.facturaIssue.subject : wsfe.exportacionIssue.subject,
      logger,
    };
    const expired = now() - row.created_at.getTime() >= deps.maxAgeMs;
    const kind = deps.kinds[row.tipo] as IssuanceLifecycle<typeof request, unknown>;
    let result: Result<IssuanceAnswer<unknown>>;
    try {
      if (row.intentos <= 1 && row.admitted) result = await kind.issueAdmitted(request, ctx);
      else if (expired) result = await kind.abandon(request, ctx);
      else result = await kind.retry(request, ctx);
    } catch (error) {
      logger.error({ err: error }, "queued issuance attempt failed");
      result = { ok: false, error: appError("INTERNAL") };
    }
    if (result.ok) {
      const factura = result.value.factura as Record<string, unknown>;
      await end(row, "autorizado", { kind: "authorized", factura });
      return;
    }
    const fate = endOf(result.error);
    if (fate !== "retry") {
      await end(row, fate, { kind: "error", error: answerOf(result.error) });
      return;
    }
    const at = new Date(now() + retryDelayMs(row.intentos, deps.retryMaxMs, random()));
    logger.info(
      { code: result.error.code, retryAt: at.toISOString() },
      "queued issuance retried later",
    );
    await deps.emisiones.retryAt(row, at, answerOf(result.error));
  }

  async function end(
    row: ClaimedEmision,
    estado: EmisionFinal,
    answer: wsfe.EmisionAsync["answer"] & object,
  ): Promise<void> {
    // published first: its id is the issuance's, so a second attempt publishing it is dropped
    await deps.bus.publish(wsfe.emisionFinalizada, {
      id: wsfe.emisionFinalizadaEventId(row.id),
      version: 1,
      emisionId: row.id,
      tipo: row.tipo,
      accountId: row.account_id,
      environment: row.environment,
      estado,
      idempotencyKey: row.idempotency_key,
      ...(answer.kind === "error" ? { error: answer.error } : {}),
      occurredAt: new Date(now()).toISOString(),
    });
    await deps.emisiones.finish(row, estado, answer);
  }

  function run(row: ClaimedEmision): void {
    const task = attempt(row)
      .catch((error: unknown) => {
        // the lease ends and another attempt takes it
        deps.logger.error({ err: error, emisionId: row.id }, "queued issuance not recorded");
      })
      .finally(() => {
        running.delete(task);
        kick();
      });
    running.add(task);
  }

  async function look(): Promise<void> {
    do {
      again = false;
      const free = deps.concurrency - running.size;
      if (stopped || free <= 0) return;
      try {
        for (const row of await deps.emisiones.claim(free, deps.leaseMs)) run(row);
      } catch (error) {
        deps.logger.warn({ err: error }, "queued issuances not read");
        return;
      }
    } while (again);
  }

  function kick(): void {
    if (stopped) return;
    if (looking) {
      again = true;
      return;
    }
    looking = look().finally(() => {
      looking = undefined;
    });
  }

  const timer = setInterval(kick, deps.pollMs);
  timer.unref();
  kick();

  return {
    kick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await looking;
      await Promise.allSettled([...running]);
    },
  };
}
