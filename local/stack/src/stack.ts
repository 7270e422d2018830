import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ALL, gatewayServices } from "@pasarela/server";
import { simulatorAuthorityEnv } from "./authority-env.js";
import { freePort } from "@pasarela/servers";

export { gatewayServices };

/**
 * How the gateway's services run: `one`, every service in one process (`npm start`'s
 * default), or `processes`, one process per service (production's topology; `--processes`, and
 * what a test that kills one service needs). The same code runs either way, each service with
 * its own configuration, NATS identity, schema and pool, consumers and drain.
 */
export type Topology = "one" | "processes";

/** The name of the one process that runs every service in the `one` topology. */
export const GATEWAY_PROCESS = "gateway";

export interface StackOptions {
  /** repository root (holds services/ and local/) */
  root: string;
  natsUrl: string;
  databaseUrl: string;
  /** subject prefix isolating this stack on a shared NATS server */
  prefix?: string | undefined;
  /** every service in one process (the default), or one process per service */
  topology?: Topology | undefined;
  edgePort?: number | undefined;
  /** start the authority simulator and point every authority URL at it */
  simulator?:
    | {
        port?: number | undefined;
        /** its HTTPS port (the same app over TLS); a free one by default, `off` for none */
        httpsPort?: number | "off" | undefined;
        stateFile?: string | undefined;
        /** where it writes the certificate of its TLS CA, for AUTHORITY_CA_FILE */
        tlsCaFile?: string | undefined;
      }
    | undefined;
  /**
   * run the local SMTP sink and point SMTP_URL at it (unless `env` names one): every e-mail
   * is kept under `directory` instead of leaving the machine
   */
  mailSink?: { directory: string; port?: number | undefined } | undefined;
  /**
   * run the local stand-in of Mercado Pago's API and point MERCADOPAGO_API_URL at it (unless
   * `env` names one); payment notifications come back to this stack's edge
   */
  paymentsSimulator?: { port?: number | undefined } | undefined;
  /** variables for every process (secrets, log level, authority URLs: these win over the simulator's) */
  env?: Record<string, string> | undefined;
  /** where process output goes: the terminal (prefixed), kept in memory, or dropped */
  output?: "terminal" | "memory" | "silent";
  readyTimeoutMs?: number;
  /** extra node flags for every process (for example profiling flags) */
  nodeArgs?: readonly string[];
  /** how a process that dies after the stack is ready is restarted */
  supervision?: Partial<Supervision> | undefined;
  /**
   * Prometheus metrics of the gateway: one endpoint for the one process (`portBase`), or one per
   * service's process (METRICS_PORT, from `portBase` in start order); free ports when it is not
   * given
   */
  metrics?: { portBase?: number | undefined; host?: string | undefined } | undefined;
  /**
   * More than one process of a service (each its own instance behind the NATS queue group):
   * the first is named after the service, the others `<service>-2`, `<service>-3`, ...; the
   * `processes` topology only
   */
  replicas?: Readonly<Record<string, number>> | undefined;
  /**
   * each gateway service's NATS password, by service name: the service connects as the user
   * of its name (deploy/nats grants), in its own process or, in one process, through its scoped
   * variables (`WSFE__NATS_USER`, `WSFE__NATS_PASSWORD`); none: anonymous connections
   */
  natsPasswords?: Readonly<Record<string, string>> | undefined;
}

/**
 * A process that exits after the stack is ready is restarted after `initialDelayMs`, doubling
 * for each further crash up to `maxDelayMs`; a process that ran `stableAfterMs` before it
 * crashed starts again from `initialDelayMs`.
 */
export interface Supervision {
  initialDelayMs: number;
  maxDelayMs: number;
  stableAfterMs: number;
}

export const defaultSupervision: Supervision = {
  initialDelayMs: 250,
  maxDelayMs: 15_000,
  stableAfterMs: 30_000,
};

/** The wait before restarting a process that crashed `consecutive` times in a row before (0: first). */
export function restartDelay(consecutive: number, supervision: Supervision): number {
  return Math.min(supervision.maxDelayMs, supervision.initialDelayMs * 2 ** consecutive);
}

export interface Stack {
  edgeUrl: string;
  /** every edge process's URL, the first being edgeUrl (replicas listen on ports of their own) */
  edgeUrls: string[];
  simulatorUrl: string | undefined;
  /** the simulator's HTTPS origin, when it runs */
  simulatorHttpsUrl: string | undefined;
  /** the local Mercado Pago's origin, when it runs */
  paymentsSimulatorUrl: string | undefined;
  /** the environment every process got (minus nothing: tests reuse it for CLIs) */
  env: Record<string, string>;
  /** captured output of every process, when output is "memory" */
  output(): string;
  /** how the gateway's services run */
  topology: Topology;
  /**
   * the running process of `name` (a process's name, or a service's: in the `one` topology,
   * every service's process is the gateway's), if it is running now
   */
  pid(name: string): number | undefined;
  /** how many times each process was restarted after a crash, by process name */
  restarts(): Record<string, number>;
  /**
   * each gateway service's metrics endpoint (`…/metrics`), when metrics were asked for: in the
   * `one` topology every service's is the one process's, its series labelled by service
   */
  metricsUrls: Record<string, string>;
  stop(): Promise<void>;
}

interface Child {
  name: string;
  /** the gateway's services or the stand-ins this process runs */
  kind: "gateway" | "stand-ins";
  entry: string;
  args: readonly string[];
  extraEnv: Record<string, string>;
  process: ChildProcess;
  startedAt: number;
  /** crashes in a row, each within `stableAfterMs` of its start */
  consecutive: number;
  restarts: number;
  restartTimer?: NodeJS.Timeout | undefined;
}

/** A compiled entry point, or an error saying how to build it. */
function entryOf(root: string, path: readonly string[], what: string): string {
  const entry = join(root, ...path);
  if (!existsSync(entry)) throw new Error(`${what} is not built (run: npx tsc -b)`);
  return entry;
}

/** How long a process may take to stop on SIGTERM before it is killed: its drains, and a margin. */
function stopBoundMs(env: Record<string, string>, topology: Topology): number {
  const drainMs = Number(env.SHUTDOWN_DRAIN_MS ?? 20_000) || 20_000;
  const edgeDelayMs = Number(env.EDGE_STOP_DELAY_MS ?? 0) || 0;
  // in one process the edge drains first, then the services behind it
  return (topology === "one" ? 2 * drainMs + edgeDelayMs : drainMs + edgeDelayMs) + 5_000;
}

async function waitForHttp(url: string, timeoutMs: number, children: Child[]): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    const dead = children.find((c) => c.process.exitCode !== null || c.process.signalCode !== null);
    if (dead)
      throw new Error(
        `${dead.name} exited with code ${String(dead.process.exitCode)} (signal ${String(dead.process.signalCode)}) during start`,
      );
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${url} not ready within ${timeoutMs} ms (last answer: ${last})`);
}

/**
 * Starts the built gateway, its services in one process or one process each, behind the local
 * stand-ins asked for (in one process of their own), waits until the edge's /readyz is green,
 * and returns a handle that stops them all.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const output = options.output ?? "terminal";
  const topology = options.topology ?? "one";
  if (topology === "one" && Object.values(options.replicas ?? {}).some((n) => n > 1)) {
    throw new Error("replicas of a service need the processes topology (one process per service)");
  }
  const supervision: Supervision = { ...defaultSupervision, ...options.supervision };
  const captured: string[] = [];
  const children: Child[] = [];
  let ready = false;
  let stopping = false;
  const edgePort = options.edgePort ?? (await freePort());
  const env: Record<string, string> = {
    ...(Object.fromEntries(
      Object.entries(process.env).filter(([, v]) => v !== undefined),
    ) as Record<string, string>),
    NATS_URL: options.natsUrl,
    DATABASE_URL: options.databaseUrl,
    EDGE_PORT: String(edgePort),
    // shareable PDF links point at this stack's edge
    PDF_PUBLIC_URL: process.env.PDF_PUBLIC_URL ?? `http://127.0.0.1:${edgePort}`,
    // payment notifications come back to this stack's edge
    COBROS_PUBLIC_URL: process.env.COBROS_PUBLIC_URL ?? `http://127.0.0.1:${edgePort}`,
    // password-reset e-mails link to this stack's dashboard
    DASHBOARD_PUBLIC_URL: process.env.DASHBOARD_PUBLIC_URL ?? `http://127.0.0.1:${edgePort}`,
    // the receivers of a local stack are local processes
    WEBHOOKS_ALLOW_PRIVATE: process.env.WEBHOOKS_ALLOW_PRIVATE ?? "true",
    ...(options.prefix ? { NATS_PREFIX: options.prefix } : {}),
    ...options.env,
  };

  const say = (message: string) => {
    if (output === "memory") captured.push(`[stack] ${message}\n`);
    else if (output === "terminal") process.stdout.write(`[stack] ${message}\n`);
  };

  const spawnChild = (
    name: string,
    entry: string,
    args: readonly string[],
    extraEnv: Record<string, string>,
  ) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry, ...args], {
      env: { ...env, ...extraEnv },
      stdio: output === "silent" ? "ignore" : ["ignore", "pipe", "pipe"],
    });
    const sink = (chunk: Buffer) => {
      const text = chunk.toString();
      if (output === "memory") captured.push(text);
      else process.stdout.write(text.replace(/^(?=.)/gm, `[${name}] `));
    };
    child.stdout?.on("data", sink);
    child.stderr?.on("data", sink);
    return child;
  };

  // Before the stack is ready a dying process fails the start (waitForHttp reports it): a
  // configuration error must not loop. Afterwards it is restarted with backoff, and /readyz
  // (which asks every service's health subject) is red until it answers again.
  const supervise = (child: Child) => {
    child.process.once("exit", (code, signal) => {
      if (stopping || !ready) return;
      const ranMs = Date.now() - child.startedAt;
      if (ranMs >= supervision.stableAfterMs) child.consecutive = 0;
      const delay = restartDelay(child.consecutive, supervision);
      child.consecutive++;
      child.restarts++;
      say(
        `${child.name} exited (code ${String(code)}, signal ${String(signal)}) after ${ranMs} ms; restart ${child.restarts} in ${delay} ms`,
      );
      child.restartTimer = setTimeout(() => {
        child.restartTimer = undefined;
        if (stopping) return;
        child.process = spawnChild(child.name, child.entry, child.args, child.extraEnv);
        child.startedAt = Date.now();
        supervise(child);
      }, delay);
    });
  };

  const launch = (
    name: string,
    kind: Child["kind"],
    entry: string,
    args: readonly string[],
    extraEnv: Record<string, string> = {},
  ) => {
    const child: Child = {
      name,
      kind,
      entry,
      args,
      extraEnv,
      process: spawnChild(name, entry, args, extraEnv),
      startedAt: Date.now(),
      consecutive: 0,
      restarts: 0,
    };
    supervise(child);
    children.push(child);
  };
  // If this process dies without a clean stop, take the children with it.
  const killAll = () => {
    stopping = true;
    for (const { process: child } of children) if (child.exitCode === null) child.kill("SIGKILL");
  };
  process.once("exit", killAll);

  const stopOne = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      // a process drains for SHUTDOWN_DRAIN_MS (20 s) at most before it exits
      const timer = setTimeout(() => child.kill("SIGKILL"), stopBoundMs(env, topology));
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill("SIGTERM");
    });
  // the gateway first, while the stand-ins it may still be calling are there, then them
  const stop = async () => {
    stopping = true;
    for (const child of children) clearTimeout(child.restartTimer);
    process.removeListener("exit", killAll);
    for (const kind of ["gateway", "stand-ins"] as const) {
      await Promise.all(children.filter((c) => c.kind === kind).map((c) => stopOne(c.process)));
    }
  };

  let simulatorUrl: string | undefined;
  let simulatorHttpsUrl: string | undefined;
  const metricsUrls: Record<string, string> = {};
  const edgeUrls: string[] = [];
  let paymentsSimulatorUrl: string | undefined;
  try {
    // the stand-ins asked for, in one process: each reads its own variables
    const standIns: string[] = [];
    const standInEnv: Record<string, string> = {};
    const healthUrls: string[] = [];
    if (options.simulator) {
      const port = options.simulator.port ?? (await freePort());
      const httpsPort = options.simulator.httpsPort ?? (await freePort());
      simulatorUrl = `http://127.0.0.1:${port}`;
      if (httpsPort !== "off") simulatorHttpsUrl = `https://127.0.0.1:${httpsPort}`;
      standIns.push("authority-sim");
      Object.assign(standInEnv, {
        SIM_PORT: String(port),
        SIM_HTTPS_PORT: String(httpsPort),
        ...(options.simulator.stateFile ? { SIM_STATE_FILE: options.simulator.stateFile } : {}),
        ...(options.simulator.tlsCaFile ? { SIM_TLS_CA_FILE: options.simulator.tlsCaFile } : {}),
      });
      healthUrls.push(`${simulatorUrl}/_control/health`);
      Object.assign(
        env,
        simulatorAuthorityEnv(simulatorUrl),
        { SIM_URL: simulatorUrl },
        options.env,
      );
    }
    if (options.mailSink) {
      const port = options.mailSink.port ?? (await freePort());
      standIns.push("mail-sink");
      Object.assign(standInEnv, {
        MAIL_SINK_DIR: options.mailSink.directory,
        MAIL_SINK_PORT: String(port),
      });
      Object.assign(env, { SMTP_URL: `smtp://127.0.0.1:${port}` }, options.env);
    }
    if (options.paymentsSimulator) {
      const port = options.paymentsSimulator.port ?? (await freePort());
      paymentsSimulatorUrl = `http://127.0.0.1:${port}`;
      standIns.push("payments-sim");
      standInEnv.PAYMENTS_SIM_PORT = String(port);
      healthUrls.push(`${paymentsSimulatorUrl}/_control/health`);
      Object.assign(env, { MERCADOPAGO_API_URL: paymentsSimulatorUrl }, options.env);
    }
    if (standIns.length > 0) {
      const entry = entryOf(
        options.root,
        ["local", "stack", "dist", "src", "stand-ins.js"],
        "the local stand-ins",
      );
      launch("stand-ins", "stand-ins", entry, standIns, standInEnv);
      for (const url of healthUrls) {
        await waitForHttp(url, options.readyTimeoutMs ?? 30_000, children);
      }
    }
    /** METRICS_PORT for a process: `portBase` + its start order, else (replicas) a free port */
    const metricsEnv = async (name: string, index?: number): Promise<Record<string, string>> => {
      if (!options.metrics) return {};
      const host = options.metrics.host ?? "127.0.0.1";
      const port =
        options.metrics.portBase === undefined || index === undefined
          ? await freePort()
          : options.metrics.portBase + index;
      metricsUrls[name] = `http://${host}:${port}/metrics`;
      return { METRICS_PORT: String(port), METRICS_HOST: host };
    };
    const server = entryOf(options.root, ["server", "dist", "src", "main.js"], "the gateway");
    const natsEnv = (name: string, scoped: boolean): Record<string, string> => {
      const password = options.natsPasswords?.[name];
      if (!password) return {};
      const prefix = scoped ? `${name.toUpperCase()}__` : "";
      return { [`${prefix}NATS_USER`]: name, [`${prefix}NATS_PASSWORD`]: password };
    };
    if (topology === "one") {
      const metrics = await metricsEnv(GATEWAY_PROCESS, 0);
      for (const name of gatewayServices) {
        if (metrics.METRICS_PORT) metricsUrls[name] = metricsUrls[GATEWAY_PROCESS]!;
      }
      delete metricsUrls[GATEWAY_PROCESS];
      launch(GATEWAY_PROCESS, "gateway", server, [ALL], {
        ...metrics,
        ...Object.fromEntries(
          gatewayServices.flatMap((name) => Object.entries(natsEnv(name, true))),
        ),
      });
    } else {
      for (const [index, name] of gatewayServices.entries()) {
        launch(name, "gateway", server, [name], {
          ...(await metricsEnv(name, index)),
          ...natsEnv(name, false),
        });
        for (let n = 2; n <= (options.replicas?.[name] ?? 1); n++) {
          // two processes cannot listen on one port: each further edge gets its own
          const edgeEnv: Record<string, string> = {};
          if (name === "edge") {
            const port = await freePort();
            edgeEnv.EDGE_PORT = String(port);
            edgeUrls.push(`http://127.0.0.1:${port}`);
          }
          launch(`${name}-${n}`, "gateway", server, [name], {
            ...(await metricsEnv(`${name}-${n}`)),
            ...natsEnv(name, false),
            ...edgeEnv,
          });
        }
      }
    }
    const edgeUrl = `http://127.0.0.1:${edgePort}`;
    for (const url of [edgeUrl, ...edgeUrls]) {
      await waitForHttp(`${url}/readyz`, options.readyTimeoutMs ?? 60_000, children);
    }
    ready = true;
    return {
      edgeUrl,
      edgeUrls: [edgeUrl, ...edgeUrls],
      simulatorUrl,
      simulatorHttpsUrl,
      paymentsSimulatorUrl,
      env,
      metricsUrls,
      topology,
      output: () => captured.join(""),
      pid: (name) => {
        const processName =
          topology === "one" && (gatewayServices as readonly string[]).includes(name)
            ? GATEWAY_PROCESS
            : name;
        const child = children.find((c) => c.name === processName)?.process;
        return child && child.exitCode === null && child.signalCode === null
          ? child.pid
          : undefined;
      },
      restarts: () => Object.fromEntries(children.map((c) => [c.name, c.restarts])),
      stop,
    };
  } catch (error) {
    await stop();
    const detail = output === "memory" ? `\n${captured.join("").slice(-4000)}` : "";
    throw new Error(`${error instanceof Error ? error.message : String(error)}${detail}`);
  }
}
