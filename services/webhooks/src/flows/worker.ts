import type { Logger } from "@pasarela/telemetry";
import type { EndpointsRepository } from "../db/repositories/endpoints.js";
import type { ClaimedEntrega, EntregasRepository } from "../db/repositories/entregas.js";
import { motivoDesactivacion } from "../domain/aviso.js";
import { nextRetryDelay } from "../domain/reintentos.js";
import type { Destino } from "../domain/url.js";
import { ENVIO_TIMEOUT_MS, enviar, type EnvioResult } from "./envio.js";

/** How often due deliveries are looked for when nothing woke the worker. */
export const POLL_MS = 1_000;
/** How long an attempt holds its delivery by default: longer than any attempt can take. */
export const LEASE_MS = ENVIO_TIMEOUT_MS * 6;

export interface WorkerDeps {
  readonly entregas: EntregasRepository;
  readonly endpoints: EndpointsRepository;
  /**
   * where an attempt may connect, or why it may not: the host is resolved and checked again
   * on every attempt, and the attempt connects to the address checked
   */
  readonly destino: (url: string) => Promise<Destino>;
  readonly logger: Logger;
  readonly concurrency: number;
  readonly retryScale: number;
  /** how long an endpoint fails without one delivery before it is disabled */
  readonly failureWindowMs: number;
  /** an endpoint was just disabled: its owner is to be told */
  readonly disabled?: () => void;
  readonly pollMs?: number;
  /** how long an attempt holds its delivery (LEASE_MS unless given) */
  readonly leaseMs?: number;
  readonly send?: typeof enviar;
}

export interface EntregaWorker {
  /** Looks for due deliveries now (new ones were stored, or one was re-queued). */
  wake(this: void): void;
  /** Takes no more deliveries and waits for the attempts under way. */
  stop(): Promise<void>;
}

/**
 * Delivers the due rows of `entregas`. The table is the queue: a row is leased while its
 * attempt runs, so a crash loses nothing (the lease ends and it is due again) and a
 * `delivered` row is never taken again. Attempts run at once up to `concurrency`, one per
 * endpoint, so a slow or dead receiver holds one slot and the rest keep flowing.
 */
export function startEntregaWorker(deps: WorkerDeps): EntregaWorker {
  const send = deps.send ?? enviar;
  const pollMs = deps.pollMs ?? POLL_MS;
  const inFlight = new Map<string, Promise<void>>();
  const busyEndpoints = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let claiming = false;
  let again = false;

  async function attemptOf(entrega: ClaimedEntrega): Promise<EnvioResult | undefined> {
    const destino = await deps.destino(entrega.url);
    if ("problem" in destino) {
      return {
        delivered: false,
        statusCode: null,
        error: `La url ${destino.problem}`,
        latencyMs: 0,
      };
    }
    const secretos = await deps.endpoints.signingSecrets(
      entrega.accountId,
      entrega.endpointId,
      new Date(),
    );
    // deleted meanwhile: its deliveries went with it
    if (!secretos) return undefined;
    return send(entrega.url, entrega.payload, secretos, destino);
  }

  async function deliver(entrega: ClaimedEntrega): Promise<void> {
    const logger = deps.logger.child({ entregaId: entrega.id, webhookId: entrega.endpointId });
    try {
      const result = await attemptOf(entrega);
      if (!result) return;
      const attempts = entrega.attempts + 1;
      if (result.delivered) {
        await deps.entregas.finish(entrega, {
          status: "delivered",
          statusCode: result.statusCode,
          error: null,
          latencyMs: result.latencyMs,
          nextAttemptAt: null,
        });
        logger.info({ attempts, statusCode: result.statusCode }, "webhook delivered");
        await deps.endpoints.recordSuccess(entrega.endpointId);
        return;
      }
      const delay = nextRetryDelay(attempts, Date.now() - entrega.createdAt.getTime(), {
        scale: deps.retryScale,
      });
      await deps.entregas.finish(entrega, {
        status: delay === undefined ? "failed" : "pending",
        statusCode: result.statusCode,
        error: result.error,
        latencyMs: result.latencyMs,
        nextAttemptAt: delay === undefined ? null : new Date(Date.now() + delay),
      });
      if (delay === undefined) {
        logger.warn({ attempts, error: result.error }, "webhook delivery failed for good");
      } else {
        logger.info({ attempts, delayMs: delay, error: result.error }, "webhook to be retried");
        // a retry sooner than the next poll is not left waiting for it
        if (delay < pollMs) later(delay);
      }
      await failed(entrega.endpointId, result.error ?? `HTTP ${result.statusCode}`, logger);
    } catch (error) {
      // the lease ends and the delivery is due again: nothing is lost
      logger.warn({ err: error }, "webhook attempt not recorded: to be retried");
    }
  }

  /** Counts a failed attempt against its endpoint, disabling it at the window's end. */
  async function failed(endpointId: string, error: string, logger: Logger): Promise<void> {
    const at = new Date();
    const disabled = await deps.endpoints.recordFailure(
      endpointId,
      at,
      deps.failureWindowMs,
      (since) => motivoDesactivacion(since, at, error),
    );
    if (!disabled) return;
    logger.warn(
      { fallandoDesde: disabled.fallandoDesde.toISOString() },
      "webhook disabled: its deliveries failed for the whole failure window",
    );
    deps.disabled?.();
  }

  function later(delayMs: number): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      wake();
    }, delayMs);
    timer.unref();
    timers.add(timer);
  }

  function start(entrega: ClaimedEntrega): void {
    busyEndpoints.add(entrega.endpointId);
    const running = deliver(entrega).finally(() => {
      inFlight.delete(entrega.id);
      busyEndpoints.delete(entrega.endpointId);
      wake();
    });
    inFlight.set(entrega.id, running);
  }

  async function claim(): Promise<void> {
    claiming = true;
    try {
      do {
        again = false;
        const free = deps.concurrency - inFlight.size;
        if (free <= 0) break;
        const taken = await deps.entregas.claim(free, [...busyEndpoints], deps.leaseMs ?? LEASE_MS);
        for (const entrega of taken) start(entrega);
        // a full batch may have left more behind
        if (taken.length === free) again = true;
      } while (again && !stopped);
    } catch (error) {
      deps.logger.warn({ err: error }, "due webhook deliveries not read: to be tried again");
    } finally {
      claiming = false;
    }
  }

  function wake(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    void claim();
  }

  const poll = setInterval(wake, pollMs);
  poll.unref();
  wake();

  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(poll);
      for (const timer of timers) clearTimeout(timer);
      while (claiming) await new Promise((r) => setTimeout(r, 20));
      await Promise.all(inFlight.values());
    },
  };
}
