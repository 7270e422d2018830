import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryPath, freePort, tcpAnswers, waitUntil, type Running } from "@pasarela/servers";

/** One nats-server of a private cluster: it can be killed and brought back on its ports. */
export interface NatsNode {
  /** its server_name, `pasarela-<n>` */
  name: string;
  /** its client URL */
  url: string;
  /** its monitoring endpoint (`/jsz`, `/routez`, ...) */
  monitorUrl: string;
  /** the process now running, if it runs */
  pid(): number | undefined;
  /** sends the signal (SIGKILL: a crash) and resolves once the process is gone */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** starts it again on the same ports and store, if it is not running */
  restart(): Promise<void>;
}

/** A private NATS cluster: `url` lists every node's client URL, comma-separated (NATS_URL). */
export type RunningCluster = Running & { nodes: NatsNode[] };

interface JetStreamInfo {
  meta_cluster?: { leader?: string; cluster_size?: number };
}

const quoted = (text: string) => JSON.stringify(text);

/**
 * `size` nats-server processes (2.9: nothing newer is assumed) on 127.0.0.1, each with its own
 * client, route and monitoring port and its own JetStream store under `dataDir`, routed to
 * each other in one cluster (`pasarela-local`). `configFile` adds the same server
 * configuration to each (deploy/nats: users and their grants), its `$VARIABLES` from `env`.
 * Resolves once every node answers and JetStream has elected its metadata leader across all
 * of them, so a stream with `size` replicas can be created at once.
 */
export async function startPrivateNatsCluster(
  dataDir: string,
  options: { size?: number; configFile?: string; env?: Record<string, string> } = {},
): Promise<RunningCluster> {
  const binary = binaryPath("nats-server");
  if (!binary) throw new Error("nats-server is not installed");
  const size = options.size ?? 3;
  mkdirSync(dataDir, { recursive: true });
  if (options.configFile) copyFileSync(options.configFile, join(dataDir, "included.conf"));
  const ports: { client: number; route: number; monitor: number }[] = [];
  for (let i = 0; i < size; i++) {
    ports.push({ client: await freePort(), route: await freePort(), monitor: await freePort() });
  }
  const routes = ports.map(({ route }) => quoted(`nats-route://127.0.0.1:${route}`)).join(", ");

  const nodes = ports.map(({ client, route, monitor }, i): NatsNode & { stop(): Promise<void> } => {
    const name = `pasarela-${i + 1}`;
    const configPath = join(dataDir, `${name}.conf`);
    writeFileSync(
      configPath,
      [
        `server_name: ${quoted(name)}`,
        `listen: "127.0.0.1:${client}"`,
        `http: "127.0.0.1:${monitor}"`,
        `log_file: ${quoted(join(dataDir, `${name}.log`))}`,
        `jetstream { store_dir: ${quoted(join(dataDir, name))} }`,
        "cluster {",
        `  name: "pasarela-local"`,
        `  listen: "127.0.0.1:${route}"`,
        `  routes: [ ${routes} ]`,
        "}",
        ...(options.configFile ? [`include "included.conf"`] : []),
        "",
      ].join("\n"),
    );
    let child: ChildProcess | undefined;
    const running = () =>
      child !== undefined && child.exitCode === null && child.signalCode === null;
    const launch = async () => {
      child = spawn(binary, ["-c", configPath], {
        stdio: "ignore",
        env: { ...process.env, ...options.env },
      });
      await waitUntil(() => tcpAnswers("127.0.0.1", client), `nats-server ${name}`);
    };
    const kill = (signal: NodeJS.Signals = "SIGTERM") =>
      new Promise<void>((resolve) => {
        const server = child;
        if (!server || !running()) return resolve();
        const timer = setTimeout(() => server.kill("SIGKILL"), 5_000);
        server.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        server.kill(signal);
      });
    return {
      name,
      url: `nats://127.0.0.1:${client}`,
      monitorUrl: `http://127.0.0.1:${monitor}`,
      pid: () => (running() ? child?.pid : undefined),
      kill,
      restart: async () => {
        if (!running()) await launch();
      },
      stop: () => kill("SIGTERM"),
    };
  });

  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  try {
    await Promise.all(nodes.map((node) => node.restart()));
    await waitUntil(async () => {
      const infos = await Promise.all(nodes.map((node) => jetStreamInfo(node.monitorUrl)));
      return infos.every(
        (info) => info?.meta_cluster?.leader && info.meta_cluster.cluster_size === size,
      );
    }, "the JetStream cluster's metadata leader");
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: nodes.map((node) => node.url).join(","),
    source: "private",
    pid: nodes[0]!.pid(),
    nodes,
    stop,
  };
}

/** A node's `/jsz`, or undefined while it does not answer. */
async function jetStreamInfo(monitorUrl: string): Promise<JetStreamInfo | undefined> {
  try {
    const response = await fetch(`${monitorUrl}/jsz`, { signal: AbortSignal.timeout(1_000) });
    return response.ok ? ((await response.json()) as JetStreamInfo) : undefined;
  } catch {
    return undefined;
  }
}
