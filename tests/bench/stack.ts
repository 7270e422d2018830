// The stack `npm run bench` measures is the one `npm start` runs: the same NATS and PostgreSQL
// servers (local/stack's localNats and localDatabase) and the same launcher options
// (localStackOptions: metrics ports, the simulator with its state file and HTTPS port, the
// mail sink, the payments stand-in, output to the terminal). What keeps it apart from a
// running `npm start` is all that differs: a data folder and a database of its own, free ports,
// and a subject prefix on a shared NATS server.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { connectBus, type Bus } from "@pasarela/bus";
import type { NatsIdentity } from "@pasarela/contracts";
import {
  freePort,
  localDatabase,
  localNats,
  localStackOptions,
  startStack,
  type LocalSettings,
  type Stack,
  type Topology,
} from "@pasarela/stack";
import { createLogger, startTracing } from "@pasarela/telemetry";
import { dropDatabase } from "@pasarela/testing";
import { repoRoot } from "../support/cli.js";

export interface BenchStack {
  stack: Stack;
  /** where the pdf service stores this run's documents */
  pdfDir: string;
  /** a bus connection as `identity`: the operator CLI's `admin`, or a service's own */
  connect(identity: NatsIdentity): Promise<Bus>;
  /**
   * A second edge on the same bus with EDGE_USAGE_RECORDING=off: the same query path without
   * the usage event, so one run shows what recording costs.
   */
  edgeWithoutUsage(): Promise<{ url: string; stop: () => Promise<void> }>;
  stop(): Promise<void>;
}

/** Removes the JetStream streams the stack made under `prefix` on a shared server. */
async function deleteStreams(url: string, prefix: string): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    for await (const name of jsm.streams.names()) {
      if (name.startsWith(`${prefix}_`)) await jsm.streams.delete(name);
    }
  } finally {
    await nc.close();
  }
}

/**
 * Starts the stack as `npm start` does, beside any other; `nodeArgs` go to every process, and
 * `topology` says how the services run (every one in one process, `npm start`'s default, or
 * one process each, `npm start -- --processes`).
 */
export async function startBenchStack(
  nodeArgs: readonly string[],
  topology: Topology = "one",
): Promise<BenchStack> {
  const dataDir = mkdtempSync(join(tmpdir(), "pasarela-bench-"));
  const settings: LocalSettings = {
    root: repoRoot,
    dataDir,
    env: process.env,
    say: (message) => process.stdout.write(`[bench] ${message}\n`),
  };
  // its own database: a run may start one stack of each topology side by side
  const database = `pasarela_bench_${process.pid}_${topology}`;
  const undo: (() => Promise<void>)[] = [
    () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })),
  ];
  const stop = async () => {
    for (const step of undo.reverse()) await step();
  };
  try {
    const nats = await localNats(settings);
    undo.push(() => nats.stop());
    const db = await localDatabase(settings, database);
    undo.push(async () => {
      await dropDatabase(db.serverUrl, database);
      await db.stop();
    });
    // a private nats-server is this run's alone; a shared one needs a prefix of its own
    const prefix = nats.passwords ? undefined : `bench${randomBytes(3).toString("hex")}`;
    if (prefix) undo.push(() => deleteStreams(nats.url, prefix));
    const options = localStackOptions({
      ...settings,
      natsUrl: nats.url,
      databaseUrl: db.url,
      natsPasswords: nats.passwords,
      isolated: { prefix },
      topology,
    });
    const stack = await startStack({ ...options, nodeArgs });
    undo.push(() => stack.stop());
    const credentials = (identity: NatsIdentity) =>
      nats.passwords ? { user: identity, password: nats.passwords[identity] } : undefined;
    const logger = createLogger({ service: "bench", level: "warn" });
    const tracer = startTracing({ service: "bench" }).tracer;
    const buses: Bus[] = [];
    undo.push(async () => {
      await Promise.all(buses.map((bus) => bus.close()));
    });
    return {
      stack,
      pdfDir: stack.env.PDF_STORAGE_DIR ?? join(dataDir, "pdf"),
      async connect(identity) {
        const bus = await connectBus({
          url: nats.url,
          prefix,
          name: `bench-${identity}`,
          credentials: credentials(identity),
          logger,
          tracer,
        });
        buses.push(bus);
        return bus;
      },
      edgeWithoutUsage: async () => {
        const port = await freePort();
        const user = credentials("edge");
        const child = spawn(
          process.execPath,
          [...nodeArgs, join(repoRoot, "server", "dist", "src", "main.js"), "edge"],
          {
            env: {
              ...stack.env,
              ...(user ? { NATS_USER: user.user, NATS_PASSWORD: user.password } : {}),
              EDGE_PORT: String(port),
              EDGE_USAGE_RECORDING: "off",
            },
            stdio: "ignore",
          },
        );
        const url = `http://127.0.0.1:${port}`;
        for (let i = 0; ; i++) {
          const ready = await fetch(`${url}/readyz`).then(
            (r) => r.ok,
            () => false,
          );
          if (ready) break;
          if (i > 300) throw new Error("the edge without usage recording did not start");
          await new Promise((r) => setTimeout(r, 100));
        }
        return {
          url,
          stop: () =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once("exit", () => resolve());
              child.kill("SIGTERM");
            }),
        };
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
