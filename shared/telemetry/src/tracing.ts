import { context, propagation, trace, type Tracer } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";

export interface TracingSettings {
  service: string;
  /** OTLP/HTTP collector base URL; without it spans get real ids but are not exported */
  otlpEndpoint?: string | undefined;
  /** extra exporter (tests use an in-memory one) */
  exporter?: SpanExporter;
}

export interface Tracing {
  tracer: Tracer;
  shutdown(): Promise<void>;
}

let started: { provider: BasicTracerProvider; service: string } | undefined;

/**
 * Starts tracing once per process: a tracer provider (a trace sampled whenever its parent is,
 * every root), W3C trace-context propagation, the async context kept by AsyncLocalStorage, OTLP
 * export when an endpoint is configured. Later calls reuse it (tests start several services in
 * one process). Only the trace SDK is loaded: the all-in-one Node SDK brought two hundred files
 * of exporters, metrics, logs and configuration parsing no process uses into every start.
 */
export function startTracing(settings: TracingSettings): Tracing {
  if (!started) {
    const processors: SpanProcessor[] = [];
    if (settings.otlpEndpoint) {
      const url = new URL("/v1/traces", settings.otlpEndpoint).toString();
      processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
    }
    if (settings.exporter) processors.push(new SimpleSpanProcessor(settings.exporter));
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": settings.service }),
      sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
      spanProcessors: processors,
    });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    started = { provider, service: settings.service };
  }
  const { provider } = started;
  return {
    tracer: trace.getTracer(`pasarela.${settings.service}`),
    async shutdown() {
      if (started?.provider === provider) {
        started = undefined;
        await provider.shutdown();
      }
    },
  };
}
