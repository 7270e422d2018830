import { connectBus } from "@pasarela/bus";
import { natsCredentials } from "@pasarela/config";
import { createLogger, startMetricsServer, startTracing, type Logger } from "@pasarela/telemetry";
import { buildApp, type EdgeApp } from "./app.js";
import type { EdgeConfig } from "./config.js";

export { buildApp, type AppDeps, type EdgeApp } from "./app.js";
export { loadConfig, type EdgeConfig } from "./config.js";
export { routeModules, type RouteModule } from "./routes/index.js";

export interface RunningEdge extends EdgeApp {
  url: string;
  stop: () => Promise<void>;
}

/** Connects to NATS and listens on EDGE_HOST:EDGE_PORT (0 picks a free port). */
export async function startEdge(
  config: EdgeConfig,
  logger: Logger = createLogger({ service: "edge", level: config.LOG_LEVEL }),
): Promise<RunningEdge> {
  const tracing = startTracing({
    service: "edge",
    otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  const bus = await connectBus({
    url: config.NATS_URL,
    prefix: config.NATS_PREFIX,
    name: "edge",
    credentials: natsCredentials(config),
    logger,
    tracer: tracing.tracer,
    defaultTimeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
  });
  const edge = await buildApp({
    bus,
    logger,
    tracer: tracing.tracer,
    bodyLimit: config.EDGE_BODY_LIMIT,
    keyCacheTtlMs: config.EDGE_KEY_CACHE_TTL_MS,
    requestTimeoutMs: config.EDGE_REQUEST_TIMEOUT_MS,
    connectionTimeoutMs: config.EDGE_CONNECTION_TIMEOUT_MS,
    apiTimeoutMs: config.API_TIMEOUT_MS,
    recordUsage: config.EDGE_USAGE_RECORDING === "on",
  });
  const url = await edge.app.listen({ port: config.EDGE_PORT, host: config.EDGE_HOST });
  logger.info({ url }, "edge listening");
  const metrics =
    config.METRICS_PORT === undefined
      ? undefined
      : await startMetricsServer({
          service: "edge",
          port: config.METRICS_PORT,
          host: config.METRICS_HOST,
          logger,
        });
  return {
    ...edge,
    url,
    stop: async () => {
      await edge.close();
      await metrics?.close();
      await bus.close();
    },
  };
}
