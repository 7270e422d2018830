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

/** The catalogue code an error answer carried (set by the error handler). */
export function noteErrorCode(request: FastifyRequest, code: string): void {
  request.usage = { ...request.usage, code };
}

/** The call consumed a unit of the account's quota (a production CAE or registry lookup). */
export function noteQuotaConsumed(request: FastifyRequest): void {
  request.usage = { ...request.usage, quotaConsumed: true };
}

const text = (value: unknown, pattern: RegExp) =>
  typeof value === "string" && pattern.test(value) ? value : null;

/**
 * Issue 12: every authenticated API call goes to the usage history. The event is published
 * after the answer is sent and never awaited, so recording costs the hot path no round trip;
 * a failed publication is logged and the call stands.
 */
export function registerUsageRecording(app: FastifyInstance, bus: Bus, logger: Logger): void {
  app.addHook("onResponse", (request, reply, done) => {
    const principal = request.principal;
    if (principal) {
      const body = (typeof request.body === "object" && request.body) || {};
      const { environment, representada } = body as Record<string, unknown>;
      bus
        .publish(billing.usoRegistrado, {
          id: randomUUID(),
          version: 1,
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
        })
        .catch((error: unknown) => {
          logger.warn({ err: error, requestId: request.id }, "usage record not published");
        });
    }
    done();
  });
}
