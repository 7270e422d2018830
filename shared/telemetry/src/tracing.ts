import { propagation, trace, type Tracer } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { NodeSDK } from "@opentelemetry/sdk-node";
import {
  BatchSpanProcessor,
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

// Spans must carry real trace ids (logs and NATS headers use them) even when nothing exports
// them, and the SDK only installs a tracer provider when it has at least one processor.
const keepIdsOnly: SpanProcessor = {
  onStart() {},
  onEnd() {},
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

let started: { sdk: NodeSDK; service: string } | undefined;

/**
 * Starts the OpenTelemetry NodeSDK once per process: W3C trace-context propagation,
 * async-hooks context, OTLP export when an endpoint is configured. Later calls reuse it
 * (tests start several services in one process).
 */
export function startTracing(settings: TracingSettings): Tracing {
  if (!started) {
    const processors: SpanProcessor[] = [];
    if (settings.otlpEndpoint) {
      const url = new URL("/v1/traces", settings.otlpEndpoint).toString();
      processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
    }
    if (settings.exporter) processors.push(new SimpleSpanProcessor(settings.exporter));
    if (processors.length === 0) processors.push(keepIdsOnly);
    const sdk = new NodeSDK({
      resource: resourceFromAttributes({ "service.name": settings.service }),
      autoDetectResources: false,
      spanProcessors: processors,
      logRecordProcessors: [],
      instrumentations: [],
      textMapPropagator: new W3CTraceContextPropagator(),
    });
    sdk.start();
    // NodeSDK registers the propagator only through its own env parsing in some versions.
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    started = { sdk, service: settings.service };
  }
  const { sdk } = started;
  return {
    tracer: trace.getTracer(`pasarela.${settings.service}`),
    async shutdown() {
      if (started?.sdk === sdk) {
        started = undefined;
        await sdk.shutdown();
      }
    },
  };
}
