import { connectBus, livenessOf, type Binding, type Bus } from "@pasarela/bus";
import { natsCredentials } from "@pasarela/config";
import {
  classifyDatabaseFailure,
  migrateToLatest,
  openDatabase,
  type Database,
  type Migration,
} from "@pasarela/db";
import {
  asService,
  createLogger,
  startTracing,
  type Logger,
  type Tracing,
} from "@pasarela/telemetry";
import { watchConsumerLag } from "./consumer-lag.js";

export {
  runProcess,
  serviceEnv,
  serviceModule,
  startServices,
  StartFailure,
  type Env,
  type ProcessOptions,
  type RunningServices,
  type ServiceModule,
  type StartedService,
} from "./process.js";

/** The settings every service process reads (from its own config.ts). */
export interface BaseSettings {
  NATS_URL: string;
  NATS_PREFIX?: string | undefined;
  NATS_REQUEST_TIMEOUT_MS: number;
  NATS_PROGRESS_INTERVAL_MS?: number | undefined;
  NATS_SILENCE_TIMEOUT_MS?: number | undefined;
  NATS_STREAM_REPLICAS?: number | undefined;
  /** how long a stop waits for the work already taken (20 s when unset) */
  SHUTDOWN_DRAIN_MS?: number | undefined;
  /** the service's own NATS identity (deploy/nats); unset: anonymous */
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_CREDS?: string | undefined;
  LOG_LEVEL: string;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
}

export interface DatabaseSettings {
  DATABASE_URL: string;
  DATABASE_POOL_SIZE: number;
}

export interface ServiceDefinition<DB, Deps> {
  name: string;
  version?: string;
  settings: BaseSettings & Partial<DatabaseSettings>;
  /** the service's own schema and frozen migrations; omitted by stateless services */
  database?: { schema: string; migrations: Record<string, Migration> };
  /** builds handlers and whatever else the service runs, from the live connections */
  start(
    runtime: Runtime<DB>,
  ): Promise<Deps & { bindings: readonly Binding[]; stop?: () => Promise<void> }>;
  logger?: Logger;
}

export interface Runtime<DB> {
  bus: Bus;
  db: Database<DB> | undefined;
  logger: Logger;
  tracing: Tracing;
}

export interface RunningService<Deps> {
  deps: Deps;
  bus: Bus;
  /** the graceful stop SIGTERM runs (see startService); a second call waits for the first */
  stop: () => Promise<void>;
}

/** How long a stop waits for the work already taken when SHUTDOWN_DRAIN_MS is unset. */
export const DEFAULT_SHUTDOWN_DRAIN_MS = 20_000;

/** Resolves with `work`, or undefined once `ms` have passed without it. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), Math.max(ms, 0));
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The composition root every service shares: telemetry, migrations, database, bus, the
 * handlers, and a graceful stop. The stop takes no new work (the request subscriptions are
 * drained, so the queue group's other instances answer what is sent from then on, and durable
 * consumers fetch no more), waits up to SHUTDOWN_DRAIN_MS for the requests taken to be
 * answered and the batches taken to be settled, then runs the service's own stop and closes
 * the bus and the database. What is still running at the bound is abandoned: its requester
 * gets no answer (its liveness check notices) and its messages, never acknowledged, are
 * redelivered.
 */
export function startService<DB, Deps>(
  definition: ServiceDefinition<DB, Deps>,
): Promise<RunningService<Deps>> {
  // its spans and metrics name it, whatever else runs in the process (telemetry's scope)
  return asService(definition.name, () => startInScope(definition));
}

async function startInScope<DB, Deps>(
  definition: ServiceDefinition<DB, Deps>,
): Promise<RunningService<Deps>> {
  const { settings } = definition;
  const logger =
    definition.logger ?? createLogger({ service: definition.name, level: settings.LOG_LEVEL });
  const tracing = startTracing({
    service: definition.name,
    otlpEndpoint: settings.OTEL_EXPORTER_OTLP_ENDPOINT,
  });
  let db: Database<DB> | undefined;
  if (definition.database) {
    if (!settings.DATABASE_URL) throw new Error("DATABASE_URL is required");
    await migrateToLatest(
      settings.DATABASE_URL,
      definition.database.schema,
      definition.database.migrations,
    );
    db = openDatabase<DB>({
      url: settings.DATABASE_URL,
      schema: definition.database.schema,
      poolSize: settings.DATABASE_POOL_SIZE ?? 10,
    });
  }
  const bus = await connectBus({
    url: settings.NATS_URL,
    prefix: settings.NATS_PREFIX,
    name: definition.name,
    credentials: natsCredentials(settings),
    logger,
    tracer: tracing.tracer,
    defaultTimeoutMs: settings.NATS_REQUEST_TIMEOUT_MS,
    liveness: livenessOf(settings),
    streamReplicas: settings.NATS_STREAM_REPLICAS,
    // a dropped database connection is a momentary outage (503), not a bug (500)
    ...(db ? { classifyFailure: classifyDatabaseFailure } : {}),
  });
  const started = await definition.start({ bus, db, logger, tracing });
  const served = bus.serve(
    {
      name: definition.name,
      version: definition.version ?? "0.1.0",
      ...(db ? { ready: () => db.ping() } : {}),
    },
    started.bindings,
  );
  // The server must know the subscriptions before anyone is told the service is up.
  await bus.connection.flush();
  watchConsumerLag(bus);
  logger.info({ prefix: settings.NATS_PREFIX ?? null }, `${definition.name} started`);
  const drainMs = settings.SHUTDOWN_DRAIN_MS ?? DEFAULT_SHUTDOWN_DRAIN_MS;
  let stopping: Promise<void> | undefined;
  const stop = async (): Promise<void> => {
    const deadline = Date.now() + drainMs;
    const startedAt = Date.now();
    logger.info({ drainMs }, `${definition.name} draining`);
    // request subscriptions and durable consumers together: neither takes anything new
    const drained = await bus.drain(drainMs);
    if (!drained) {
      logger.warn(
        { drainMs, requests: served.inFlight() },
        "drain bound reached with work still running: abandoned",
      );
    }
    // what is left of the bound, and a second at least, for each step still to come
    const remaining = () => Math.max(deadline - Date.now(), 1_000);
    // the service's own stop: its timers and background work (its consumers already stopped)
    const ownStopped = started.stop
      ? await within(
          started.stop().then(() => true),
          remaining(),
        )
      : true;
    if (!ownStopped) logger.warn({ drainMs }, "the service's own stop is past the drain bound");
    await bus.close();
    // everything that queries has stopped: a query still running is a straggler, given 2 s at
    // most (and never past the bound) before its connection is closed
    const closed = db
      ? await within(
          db.close(Math.min(remaining(), 2_000)).then(() => true),
          remaining(),
        )
      : true;
    if (!closed) logger.warn({ drainMs }, "database pool not closed within the drain bound");
    logger.info({ ms: Date.now() - startedAt, drained }, `${definition.name} stopped`);
  };
  return {
    deps: started,
    bus,
    stop() {
      stopping ??= stop();
      return stopping;
    },
  };
}
export type { Logger };
