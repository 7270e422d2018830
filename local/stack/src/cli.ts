#!/usr/bin/env node
// `npm start`: the whole gateway on one machine, every service in one process and the local
// stand-ins in another. NATS and PostgreSQL come from NATS_URL and DATABASE_URL, else the local
// defaults, else private servers under .data/ when the binaries are installed. Both authority
// environments point at the simulator unless AUTHORITY=real.
// `npm start -- --processes`: one process per service instead (production's topology).
// `npm start -- --cluster`: a private 3-node JetStream cluster instead, streams with 3
// replicas, and 2 processes of every service.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Running } from "@pasarela/servers";
import { localDatabase, localNats, localStackOptions, type LocalSettings } from "./local.js";
import { startStack } from "./stack.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
/** where the local stack keeps its state: secrets, NATS passwords, the simulator's, e-mails, PDFs */
const dataDir = resolve(process.env.PASARELA_DATA_DIR || join(root, ".data"));

function say(message: string): void {
  process.stdout.write(`[stack] ${message}\n`);
}

const USAGE = "usage: npm start [-- --processes | --cluster]";
const FLAGS = ["--processes", "--cluster"];

async function main(): Promise<void> {
  const flags = process.argv.slice(2);
  const unknown = flags.find((flag) => !FLAGS.includes(flag));
  if (unknown !== undefined) throw new Error(`unknown option ${unknown} (${USAGE})`);
  const cluster = flags.includes("--cluster");
  const topology = cluster || flags.includes("--processes") ? "processes" : "one";
  const settings: LocalSettings = { root, dataDir, env: process.env, say };
  const infra: Running[] = [];
  const natsServer = await localNats(settings, undefined, { cluster });
  infra.push(natsServer);
  const db = await localDatabase(settings);
  infra.push(db);
  const options = localStackOptions({
    ...settings,
    natsUrl: natsServer.url,
    databaseUrl: db.url,
    natsPasswords: natsServer.passwords,
    cluster,
    topology,
  });
  const stack = await startStack(options);
  if (stack.simulatorUrl) {
    say(
      `authority: both environments point at the local simulator ${stack.simulatorUrl} (AUTHORITY=real to use the real hosts)`,
    );
    if (stack.simulatorHttpsUrl) {
      say(
        `the simulator also serves HTTPS at ${stack.simulatorHttpsUrl}; its CA certificate is ${options.simulator?.tlsCaFile ?? ""}`,
      );
    }
  }
  const metrics = Object.entries(stack.metricsUrls);
  if (metrics.length > 0 && stack.topology === "one") {
    say(`metrics: ${metrics[0]![1]} (every series labelled with its service)`);
  } else if (metrics.length > 0) {
    say(`metrics: ${metrics.map(([name, url]) => `${name} ${url}`).join(", ")}`);
  }
  if (stack.paymentsSimulatorUrl) {
    say(
      `payment links: Mercado Pago is the local stand-in ${stack.paymentsSimulatorUrl} (register an account's token there with POST /_control/accounts)`,
    );
  }
  if (!process.env.SMTP_URL) {
    say(
      `e-mail: a local SMTP sink keeps every message under ${join(dataDir, "mail")} (npm run admin -- mail list; SMTP_URL to relay for real)`,
    );
  }
  say(
    topology === "one"
      ? `every service runs in one process (pid ${String(stack.pid("gateway"))}); npm start -- --processes runs one per service`
      : "every service runs in a process of its own",
  );
  if (cluster) {
    say(
      `cluster: every service runs 2 processes, the streams keep 3 replicas; the second edge is at ${stack.edgeUrls.slice(1).join(", ")}`,
    );
  }
  say(`gateway ready at ${stack.edgeUrl} (docs at ${stack.edgeUrl}/docs); Ctrl-C stops everything`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping`);
    void stack
      .stop()
      .then(() => Promise.all(infra.map((i) => i.stop())))
      .then(() => process.exit(0));
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  process.stderr.write(`[stack] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
