import { serviceModule } from "@pasarela/service";
import { connectBus, livenessOf } from "@pasarela/bus";
import { natsCredentials } from "@pasarela/config";
import { migrateToLatest, openDatabase } from "@pasarela/db";
import { asService, createLogger, startTracing, type Logger } from "@pasarela/telemetry";
import { buildApp, type EdgeApp } from "./app.js";
import { loadConfig, type EdgeConfig } from "./config.js";
import type { EdgeDatabase } from "./panel/db/database.js";
import { migrations, schema } from "./panel/db/migrations/index.js";
import { makeSessionStore } from "./panel/sessions.js";

export { buildApp, type AppDeps, type EdgeApp } from "./app.js";
export { loadConfig, edgeConfigSchema as configSchema, type EdgeConfig } from "./config.js";
export { statusOfKind } from "./http/status.js";
export { routeModules, type RouteModule } from "./routes/index.js";
export { migrations, schema } from "./panel/db/migrations/index.js";

/** How often sessions long expired and unread flashes are deleted. */
const SWEEP_EVERY_MS = 10 * 60_000;

export interface RunningEdge extends EdgeApp {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Migrates the edge's schema (dashboard sessions), connects to NATS and PostgreSQL and
 * listens on EDGE_HOST:EDGE_PORT (0 picks a free port).
 */
export function startEdge(
  config: EdgeConfig,
  logger: Logger = createLogger({ service: "edge", level: config.LOG_LEVEL }),
): Promise<RunningEdge> {
  // its spans and metrics name it, whatever else runs in the process (telemetry's scope)
  return asService("edge", () => listen(config, logger));
}

async function listen(config: EdgeConfig, logger: Logger): Promise<RunningEdge> {
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
    liveness: livenessOf(config),
    streamReplicas: config.NATS_STREAM_REPLICAS,
  });
  await migrateToLatest(config.DATABASE_URL, schema, migrations);
  const database = openDatabase<EdgeDatabase>({
    url: config.DATABASE_URL,
    schema,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  const sessions = makeSessionStore(database.db, {
    idleMs: config.DASHBOARD_SESSION_IDLE_MS,
    absoluteMs: config.DASHBOARD_SESSION_MAX_MS,
  });
  let listening = "";
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
    panel: {
      sessions,
      settings: {
        cookieSecure: config.DASHBOARD_COOKIE_SECURE,
        idleMs: config.DASHBOARD_SESSION_IDLE_MS,
        absoluteMs: config.DASHBOARD_SESSION_MAX_MS,
        publicUrl: () => (config.DASHBOARD_PUBLIC_URL ?? listening).replace(/\/+$/, ""),
      },
    },
  });
  const url = await edge.app.listen({ port: config.EDGE_PORT, host: config.EDGE_HOST });
  listening = url;
  const sweep = setInterval(() => {
    sessions.sweep().catch((error: unknown) => logger.warn({ err: error }, "session sweep failed"));
  }, SWEEP_EVERY_MS);
  sweep.unref();
  logger.info({ url }, "edge listening");
  return {
    ...edge,
    url,
    // SIGTERM: /readyz 503 while still serving for EDGE_STOP_DELAY_MS, then no new connections,
    // the requests in flight answered (SHUTDOWN_DRAIN_MS at most), then the bus drained and the
    // database closed
    stop: async () => {
      clearInterval(sweep);
      await edge.close(config.SHUTDOWN_DRAIN_MS, config.EDGE_STOP_DELAY_MS);
      await bus.close();
      await database.close();
    },
  };
}

/** edge as a process runs it, alone or beside the other services: see `@pasarela/server`. */
export const edgeService = serviceModule("edge", {
  config: loadConfig,
  start: startEdge,
});
