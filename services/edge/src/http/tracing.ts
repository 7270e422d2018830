import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import { ENVIRONMENTS } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { FastifyInstance, FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    span?: Span;
    otelContext?: Context;
  }
}

/**
 * One server span per HTTP request, continuing the caller's `traceparent` when it sends one.
 * The response carries `traceparent` back, and every bus request made for it carries the same
 * trace in NATS headers.
 */
export function registerTracing(app: FastifyInstance, tracer: Tracer, logger: Logger): void {
  app.addHook("onRequest", (request, reply, done) => {
    // most callers send no trace context: nothing to extract then
    const parent =
      request.headers.traceparent === undefined
        ? ROOT_CONTEXT
        : propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(
      `${request.method} ${request.routeOptions.url ?? "unmatched"}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "http.request.method": request.method,
          "url.path": request.url.split("?")[0],
        },
      },
      parent,
    );
    request.span = span;
    request.otelContext = trace.setSpan(parent, span);
    const carrier: Record<string, string> = {};
    propagation.inject(request.otelContext, carrier);
    if (carrier.traceparent) void reply.header("traceparent", carrier.traceparent);
    void reply.header("x-request-id", request.id);
    done();
  });
  app.addHook("onResponse", (request, reply, done) => {
    const span = request.span;
    if (span) {
      span.setAttributes({
        "http.response.status_code": reply.statusCode,
        ...(request.routeOptions.url ? { "http.route": request.routeOptions.url } : {}),
        ...callerAttributes(request),
      });
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    // the line's fields are not even gathered when the level is off
    if (logger.isLevelEnabled("info")) {
      request.log.info(
        {
          ...traceFields(request),
          requestId: request.id,
          method: request.method,
          route: request.routeOptions.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 10) / 10,
          accountId: request.principal?.accountId,
        },
        "request",
      );
    }
    done();
  });
}

/**
 * Who the call was for, as span attributes: the account, and the environment and representada
 * the body named (only well-formed values: a refused body's fields are not echoed into traces).
 */
function callerAttributes(request: FastifyRequest): Record<string, string> {
  const attributes: Record<string, string> = {};
  if (request.principal) attributes["pasarela.account_id"] = request.principal.accountId;
  const body = request.body as { environment?: unknown; representada?: unknown } | undefined;
  if (typeof body === "object" && body !== null) {
    if (
      typeof body.environment === "string" &&
      (ENVIRONMENTS as readonly string[]).includes(body.environment)
    ) {
      attributes["pasarela.environment"] = body.environment;
    }
    if (typeof body.representada === "string" && /^\d{11}$/.test(body.representada)) {
      attributes["pasarela.representada"] = body.representada;
    }
  }
  return attributes;
}

/** The request's trace and span ids, for its log lines (hooks run outside the span's context). */
export function traceFields(request: FastifyRequest): { trace_id?: string; span_id?: string } {
  const spanContext = request.span?.spanContext();
  return spanContext ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : {};
}

/** Runs `work` inside the request's trace context (bus requests then carry it). */
export function inRequestContext<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
  return request.otelContext ? context.with(request.otelContext, work) : work();
}
