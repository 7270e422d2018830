import {
  context,
  propagation,
  trace,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerProvider,
} from "@opentelemetry/api";
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
import { currentService } from "./scope.js";

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

/** Each service's tracer provider in this process, by the service's name. */
const providers = new Map<string, BasicTracerProvider>();
let globalsSet = false;

/**
 * The provider of the service running now (telemetry's scope), else of the first service
 * started: the spans of shared code (the database's, the authority's) that asks the global
 * API for its tracer are then its caller's service's spans, in one process of many services
 * as in a process of one.
 */
function providerNow(): TracerProvider {
  const service = currentService();
  const own = service === undefined ? undefined : providers.get(service);
  return own ?? providers.values().next().value ?? trace.getTracerProvider();
}

/** A tracer of the global API that starts each span with the running service's provider. */
class ServiceTracer implements Tracer {
  constructor(
    private readonly name: string,
    private readonly version: string | undefined,
  ) {}

  private target(): Tracer {
    return providerNow().getTracer(this.name, this.version);
  }

  startSpan(name: string, options?: SpanOptions, parent?: Context): Span {
    return this.target().startSpan(name, options, parent);
  }

  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]
  ): ReturnType<F> {
    const tracer = this.target() as {
      startActiveSpan(name: string, ...args: unknown[]): ReturnType<F>;
    };
    return tracer.startActiveSpan(name, ...rest);
  }
}

/**
 * Starts tracing for one service: a tracer provider of its own, whose resource names the
 * service (`service.name`), so that back ends show each service apart even when one process
 * runs them all. A trace is sampled whenever its parent is, every root; OTLP export when an
 * endpoint is configured. The process-wide parts are set once: W3C trace-context propagation,
 * the async context kept by AsyncLocalStorage, and a global provider that hands shared code the
 * tracer of the service running it. A second start of the same service reuses its provider
 * (tests start services several times in one process). Only the trace SDK is loaded: the
 * all-in-one Node SDK brought two hundred files no process uses into every start.
 */
export function startTracing(settings: TracingSettings): Tracing {
  let provider = providers.get(settings.service);
  if (!provider) {
    const processors: SpanProcessor[] = [];
    if (settings.otlpEndpoint) {
      const url = new URL("/v1/traces", settings.otlpEndpoint).toString();
      processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
    }
    if (settings.exporter) processors.push(new SimpleSpanProcessor(settings.exporter));
    provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": settings.service }),
      sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
      spanProcessors: processors,
    });
    providers.set(settings.service, provider);
  }
  if (!globalsSet) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider({
      getTracer: (name, version) => new ServiceTracer(name, version),
    });
    globalsSet = true;
  }
  const own = provider;
  return {
    tracer: own.getTracer(`pasarela.${settings.service}`),
    async shutdown() {
      if (providers.get(settings.service) === own) {
        providers.delete(settings.service);
        await own.shutdown();
      }
    },
  };
}
