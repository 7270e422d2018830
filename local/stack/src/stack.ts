import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { simulatorAuthorityEnv } from "./authority-env.js";
import { freePort } from "./infra.js";

/** Gateway services in start order; the edge last, so /readyz turns green as soon as it listens. */
export const gatewayServices = [
  "billing",
  "ticket",
  "catalog",
  "wsfe",
  "wsfex",
  "padron",
  "pdf",
  "mail",
  "cobros",
  "webhooks",
  "edge",
] as const;

export interface StackOptions {
  /** repository root (holds services/ and local/) */
  root: string;
  natsUrl: string;
  databaseUrl: string;
  /** subject prefix isolating this stack on a shared NATS server */
  prefix?: string | undefined;
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
   * Prometheus metrics of every gateway service, each on its own port (METRICS_PORT): from
   * `portBase` in start order, or free ports when it is not given
   */
  metrics?: { portBase?: number | undefined; host?: string | undefined } | undefined;
  /**
   * More than one process of a service (each its own instance behind the NATS queue group):
   * the first is named after the service, the others `<service>-2`, `<service>-3`, ...
   */
  replicas?: Readonly<Record<string, number>> | undefined;
  /**
   * each gateway service's NATS password, by service name: the service connects as the user
   * of its name (deploy/nats grants); none: anonymous connections
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
  /** the running process of `name`, if it is running now */
  pid(name: string): number | undefined;
  /** how many times each process was restarted after a crash */
  restarts(): Record<string, number>;
  /** each gateway service's metrics endpoint (`…/metrics`), when metrics were asked for */
  metricsUrls: Record<string, string>;
  stop(): Promise<void>;
}

interface Child {
  name: string;
  entry: string;
  extraEnv: Record<string, string>;
  process: ChildProcess;
  startedAt: number;
  /** crashes in a row, each within `stableAfterMs` of its start */
  consecutive: number;
  restarts: number;
  restartTimer?: NodeJS.Timeout | undefined;
}

/** A compiled entry point: a gateway service under services/, a local tool under local/. */
function entryOf(
  root: string,
  name: string,
  folder: "services" | "local" = "services",
): string | undefined {
  const entry = join(root, folder, name, "dist", "src", "main.js");
  return existsSync(entry) ? entry : undefined;
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
 * Starts every built gateway service as its own process (plus the simulator when asked),
 * waits until the edge's /readyz is green, and returns a handle that stops them all.
 */
export async function startStack(options: StackOptions): Promise<Stack> {
  const output = options.output ?? "terminal";
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

  const spawnChild = (name: string, entry: string, extraEnv: Record<string, string>) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], {
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
        child.process = spawnChild(child.name, child.entry, child.extraEnv);
        child.startedAt = Date.now();
        supervise(child);
      }, delay);
    });
  };

  const launch = (name: string, entry: string, extraEnv: Record<string, string> = {}) => {
    const child: Child = {
      name,
      entry,
      extraEnv,
      process: spawnChild(name, entry, extraEnv),
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

  const stop = async () => {
    stopping = true;
    for (const child of children) clearTimeout(child.restartTimer);
    process.removeListener("exit", killAll);
    await Promise.all(
      [...children].reverse().map(
        ({ process: child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            // a process drains for SHUTDOWN_DRAIN_MS (20 s) at most before it exits
            const timer = setTimeout(() => child.kill("SIGKILL"), 25_000);
            child.once("exit", () => {
              clearTimeout(timer);
              resolve();
            });
            child.kill("SIGTERM");
          }),
      ),
    );
  };

  let simulatorUrl: string | undefined;
  let simulatorHttpsUrl: string | undefined;
  const metricsUrls: Record<string, string> = {};
  const edgeUrls: string[] = [];
  let paymentsSimulatorUrl: string | undefined;
  try {
    if (options.simulator) {
      const entry = entryOf(options.root, "authority-sim", "local");
      if (!entry) throw new Error("the authority simulator is not built (run: npx tsc -b)");
      const port = options.simulator.port ?? (await freePort());
      const httpsPort = options.simulator.httpsPort ?? (await freePort());
      simulatorUrl = `http://127.0.0.1:${port}`;
      if (httpsPort !== "off") simulatorHttpsUrl = `https://127.0.0.1:${httpsPort}`;
      launch("authority-sim", entry, {
        SIM_PORT: String(port),
        SIM_HTTPS_PORT: String(httpsPort),
        ...(options.simulator.stateFile ? { SIM_STATE_FILE: options.simulator.stateFile } : {}),
        ...(options.simulator.tlsCaFile ? { SIM_TLS_CA_FILE: options.simulator.tlsCaFile } : {}),
      });
      await waitForHttp(
        `${simulatorUrl}/_control/health`,
        options.readyTimeoutMs ?? 30_000,
        children,
      );
      Object.assign(
        env,
        simulatorAuthorityEnv(simulatorUrl),
        { SIM_URL: simulatorUrl },
        options.env,
      );
    }
    if (options.mailSink) {
      const entry = entryOf(options.root, "smtp-sink", "local");
      if (!entry) throw new Error("the SMTP sink is not built (run: npx tsc -b)");
      const port = options.mailSink.port ?? (await freePort());
      launch("mail-sink", entry, {
        MAIL_SINK_DIR: options.mailSink.directory,
        MAIL_SINK_PORT: String(port),
      });
      Object.assign(env, { SMTP_URL: `smtp://127.0.0.1:${port}` }, options.env);
    }
    if (options.paymentsSimulator) {
      const entry = entryOf(options.root, "payments-sim", "local");
      if (!entry) throw new Error("the payments simulator is not built (run: npx tsc -b)");
      const port = options.paymentsSimulator.port ?? (await freePort());
      paymentsSimulatorUrl = `http://127.0.0.1:${port}`;
      launch("payments-sim", entry, { PAYMENTS_SIM_PORT: String(port) });
      await waitForHttp(
        `${paymentsSimulatorUrl}/_control/health`,
        options.readyTimeoutMs ?? 30_000,
        children,
      );
      Object.assign(env, { MERCADOPAGO_API_URL: paymentsSimulatorUrl }, options.env);
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
    for (const [index, name] of gatewayServices.entries()) {
      const entry = entryOf(options.root, name);
      if (!entry) continue;
      const password = options.natsPasswords?.[name];
      const natsEnv: Record<string, string> = password
        ? { NATS_USER: name, NATS_PASSWORD: password }
        : {};
      launch(name, entry, { ...(await metricsEnv(name, index)), ...natsEnv });
      for (let n = 2; n <= (options.replicas?.[name] ?? 1); n++) {
        // two processes cannot listen on one port: each further edge gets its own
        const edgeEnv: Record<string, string> = {};
        if (name === "edge") {
          const port = await freePort();
          edgeEnv.EDGE_PORT = String(port);
          edgeUrls.push(`http://127.0.0.1:${port}`);
        }
        launch(`${name}-${n}`, entry, {
          ...(await metricsEnv(`${name}-${n}`)),
          ...natsEnv,
          ...edgeEnv,
        });
      }
    }
    if (!children.some((c) => c.name === "edge"))
      throw new Error("the edge is not built (run: npx tsc -b)");
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
      output: () => captured.join(""),
      pid: (name) => {
        const child = children.find((c) => c.name === name)?.process;
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
