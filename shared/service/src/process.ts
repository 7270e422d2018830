import { asService, createLogger, nameProcess, type Logger } from "@pasarela/telemetry";
import { startMetricsServer, type MetricsServer } from "@pasarela/telemetry";
import { parseConfig, telemetryConfig, z } from "@pasarela/config";

/** The variables a process is given: `process.env`, or a test's own. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A service that has started: its stop drains it (see startService) and closes what it opened. */
export interface StartedService {
  stop(): Promise<void>;
}

/**
 * One gateway service as a process runs it: its name (its NATS identity, the `service` of its
 * telemetry, the argument that picks it) and how it starts from its own variables. A process
 * runs one service or several; each is the same code either way, with its own configuration,
 * NATS connection, schema and pool, consumers and drain.
 */
export interface ServiceModule {
  readonly name: string;
  /** starts the service from its variables (serviceEnv); resolves once it serves */
  start(env: Env): Promise<StartedService>;
}

/**
 * A ServiceModule from a service's parts: how it reads its configuration from its variables, how
 * it starts with that configuration and a logger named after it, and what it tells an operator
 * first (where it points). The configuration is read inside the start, so a bad variable fails
 * that service's start, naming it.
 */
export function serviceModule<C extends { LOG_LEVEL: string }>(
  name: string,
  parts: {
    config: (env: Env) => C;
    start: (config: C, logger: Logger) => Promise<StartedService>;
    announce?: (config: C, logger: Logger) => void;
  },
): ServiceModule {
  return {
    name,
    start(env) {
      const config = parts.config(env);
      const logger = createLogger({ service: name, level: config.LOG_LEVEL });
      parts.announce?.(config, logger);
      return parts.start(config, logger);
    },
  };
}

/**
 * The variables of `service` in a process that may run several: `<SERVICE>__<NAME>` (the
 * service's name in capitals, two underscores) is that service's `<NAME>`, over the process's
 * own `<NAME>`; every other service's scoped variables are left out. `WSFE__NATS_USER=wsfe`
 * gives wsfe its own NATS identity in a process that runs them all.
 */
export function serviceEnv(env: Env, service: string): Record<string, string | undefined> {
  const own = `${service.toUpperCase().replaceAll("-", "_")}__`;
  const plain: Record<string, string | undefined> = {};
  const scoped: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    const cut = name.indexOf("__");
    if (cut <= 0) plain[name] = value;
    else if (name.startsWith(own) && name.length > own.length)
      scoped[name.slice(own.length)] = value;
  }
  return { ...plain, ...scoped };
}

/** The services that did not start, each with its reason; the others were stopped again. */
export class StartFailure extends Error {
  override name = "StartFailure";
  constructor(readonly failures: readonly { service: string; reason: string }[]) {
    super(failures.map(({ service, reason }) => `${service} did not start: ${reason}`).join("; "));
  }
}

export interface RunningServices {
  /** the services started, in start order */
  readonly services: readonly string[];
  /** stops them in reverse order, stage by stage (a second call waits for the first) */
  stop(): Promise<void>;
}

const reasonOf = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);

/**
 * Starts services stage by stage, the services of a stage together, each inside its own
 * telemetry scope (its spans and metrics name it). When one fails, the ones started are stopped
 * and the start fails with a StartFailure naming every service that failed and why.
 */
export async function startServices(
  stages: readonly (readonly ServiceModule[])[],
  env: Env,
): Promise<RunningServices> {
  const started: { stage: number; name: string; service: StartedService }[] = [];
  const stopAll = async () => {
    for (let stage = stages.length - 1; stage >= 0; stage--) {
      await Promise.all(
        started
          .filter((s) => s.stage === stage)
          .map(({ name, service }) => asService(name, () => service.stop())),
      );
    }
  };
  for (const [stage, modules] of stages.entries()) {
    const outcomes = await Promise.allSettled(
      // a start that throws at once (a bad variable) fails like one that rejects
      modules.map((module) =>
        asService(module.name, () =>
          Promise.resolve().then(() => module.start(serviceEnv(env, module.name))),
        ),
      ),
    );
    const failures: { service: string; reason: string }[] = [];
    outcomes.forEach((outcome, index) => {
      const name = modules[index]!.name;
      if (outcome.status === "fulfilled") started.push({ stage, name, service: outcome.value });
      else failures.push({ service: name, reason: reasonOf(outcome.reason) });
    });
    if (failures.length > 0) {
      await stopAll();
      throw new StartFailure(failures);
    }
  }
  let stopping: Promise<void> | undefined;
  return {
    services: started.map((s) => s.name),
    stop() {
      stopping ??= stopAll();
      return stopping;
    },
  };
}

/** What the process itself reads, beside each service's own configuration. */
const processConfigSchema = z.object({
  LOG_LEVEL: telemetryConfig.LOG_LEVEL,
  METRICS_PORT: telemetryConfig.METRICS_PORT,
  METRICS_HOST: telemetryConfig.METRICS_HOST,
});

export interface ProcessOptions {
  /** the process's name: the one service it runs, or `all` */
  name: string;
  /** the services, stage by stage (every service of a stage starts together) */
  stages: readonly (readonly ServiceModule[])[];
  env: Env;
}

/**
 * A process's entry point: starts its services, serves their metrics on METRICS_PORT (one
 * endpoint for the process, each series labelled with its service), and on SIGTERM or SIGINT
 * stops them in reverse order, each draining as it does alone, then exits 0; a second signal
 * exits at once. A start that fails is logged as one line per failed service, naming it and
 * why, and exits 1.
 */
export function runProcess(options: ProcessOptions): void {
  nameProcess(options.name);
  let logger: Logger = createLogger({ service: options.name });
  const fatal = (service: string, message: string) =>
    process.stderr.write(`${JSON.stringify({ level: "fatal", service, msg: message })}\n`);
  const main = async () => {
    const config = parseConfig(processConfigSchema, options.env);
    logger = createLogger({ service: options.name, level: config.LOG_LEVEL });
    const running = await startServices(options.stages, options.env);
    const metrics: MetricsServer | undefined =
      config.METRICS_PORT === undefined
        ? undefined
        : await startMetricsServer({
            process: options.name,
            port: config.METRICS_PORT,
            host: config.METRICS_HOST,
            logger,
          });
    if (running.services.length > 1) {
      logger.info({ services: running.services }, `${options.name} started`);
    }
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(1);
      stopping = true;
      logger.info({ signal }, "stopping");
      running
        .stop()
        .then(() => metrics?.close())
        .then(() => process.exit(0))
        .catch((error: unknown) => {
          logger.error({ err: error }, "unclean stop");
          process.exit(1);
        });
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  };
  main().catch((error: unknown) => {
    if (error instanceof StartFailure) {
      for (const { service, reason } of error.failures) fatal(service, reason);
    } else {
      fatal(options.name, reasonOf(error));
    }
    process.exit(1);
  });
}
