import { randomUUID } from "node:crypto";
import type { Bus } from "@pasarela/bus";
import { billing, type Environment } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { FastifyInstance, FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** what the usage history records of this call beyond status and latency */
    usage?: { code?: string; quotaConsumed?: boolean };
  }
}

/**
 * The catalogue code an error answer carried, set by the error handler and by a replayed
 * answer alike: the usage history, the metrics and the request's span all read it here.
 */
export function noteErrorCode(request: FastifyRequest, code: string): void {
  request.usage = { ...request.usage, code };
  request.span?.setAttribute("pasarela.error_code", code);
}

/** The call consumed a unit of the account's quota (a production CAE or registry lookup). */
export function noteQuotaConsumed(request: FastifyRequest): void {
  request.usage = { ...request.usage, quotaConsumed: true };
}

const text = (value: unknown, pattern: RegExp) =>
  typeof value === "string" && pattern.test(value) ? value : null;

/** One call of the usage history, as the edge buffers it. */
type UsageCall = billing.UsageCall;

export interface UsageRecorderOptions {
  /** calls per event at most */
  maxBatch?: number;
  /** how long a call waits in the buffer for others to join it */
  flushMs?: number;
  /** calls kept while the stream does not take them; the oldest go first past it, logged */
  maxBuffered?: number;
  /** wait before publishing again after a failure */
  retryMs?: number;
}

export interface UsageRecorder {
  record(call: UsageCall): void;
  /** publishes whatever is buffered; resolves once the stream stored it (or gave up) */
  flush(): Promise<void>;
}

/**
 * The edge's writer of the usage history. Calls are buffered and published together, up to
 * `maxBatch` per event, at most `flushMs` after the first of them: one JetStream message
 * stored, delivered and acknowledged per batch instead of per call. A batch the stream did not
 * take goes back to the buffer and is published again after `retryMs`; past `maxBuffered` the
 * oldest calls are dropped with an error logged, never silently. `flush` on shutdown publishes
 * what is left.
 */
export function makeUsageRecorder(
  bus: Pick<Bus, "publish">,
  logger: Logger,
  options: UsageRecorderOptions = {},
): UsageRecorder {
  const maxBatch = options.maxBatch ?? 200;
  const flushMs = options.flushMs ?? 50;
  const maxBuffered = options.maxBuffered ?? 20_000;
  const retryMs = options.retryMs ?? 1_000;
  let buffered: UsageCall[] = [];
  let timer: NodeJS.Timeout | undefined;
  const publishing = new Set<Promise<void>>();

  function schedule(ms: number): void {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void drain();
    }, ms);
    timer.unref();
  }

  async function publish(calls: UsageCall[]): Promise<void> {
    try {
      await bus.publish(billing.usoRegistrado, { id: randomUUID(), version: 1, llamadas: calls });
    } catch (error) {
      buffered = [...calls, ...buffered];
      const dropped = buffered.length - maxBuffered;
      if (dropped > 0) {
        // batches fail in any order: the oldest calls are found by their time
        buffered = buffered.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).slice(dropped);
        logger.error({ dropped }, "usage records dropped: the event stream did not take them");
      }
      logger.warn({ err: error, calls: calls.length }, "usage records not published; retrying");
      schedule(retryMs);
    }
  }

  function drain(): Promise<void> {
    const started: Promise<void>[] = [];
    while (buffered.length > 0) {
      const calls = buffered.slice(0, maxBatch);
      buffered = buffered.slice(calls.length);
      const done = publish(calls).finally(() => publishing.delete(done));
      publishing.add(done);
      started.push(done);
    }
    return Promise.all(started).then(() => undefined);
  }

  return {
    record(call) {
      buffered.push(call);
      if (buffered.length >= maxBatch) void drain();
      else schedule(flushMs);
    },
    async flush() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      await Promise.all([...publishing, drain()]);
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Every authenticated API call goes to the usage history. The call is handed to the
 * recorder after the answer is sent, so recording costs the hot path no round trip.
 */
export function registerUsageRecording(app: FastifyInstance, recorder: UsageRecorder): void {
  app.addHook("onResponse", (request, reply, done) => {
    const principal = request.principal;
    if (principal) {
      const body = (typeof request.body === "object" && request.body) || {};
      const { environment, representada } = body as Record<string, unknown>;
      recorder.record({
        // the call's X-Request-Id: what the caller saw is what Uso and a support ticket show
        id: request.id,
        accountId: principal.accountId,
        keyId: principal.keyId,
        at: new Date(Date.now() - reply.elapsedTime).toISOString(),
        method: request.method,
        route: request.routeOptions.url ?? request.url.split("?")[0] ?? "",
        environment: text(environment, /^(homologacion|produccion)$/) as Environment | null,
        representada: text(representada, /^\d{11}$/),
        status: reply.statusCode,
        code: request.usage?.code ?? null,
        latencyMs: Math.round(reply.elapsedTime * 100) / 100,
        quotaConsumed: request.usage?.quotaConsumed ?? false,
      });
    }
    done();
  });
}
