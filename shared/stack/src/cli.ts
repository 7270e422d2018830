#!/usr/bin/env node
// `npm start`: the whole gateway on one machine. NATS and PostgreSQL come from NATS_URL and
// DATABASE_URL, else the local defaults, else private servers under .data/ when the binaries
// are installed. Both authority environments point at the simulator unless AUTHORITY=real.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  ensureDatabase,
  natsAnswers,
  postgresAnswers,
  startPrivateNats,
  startPrivatePostgres,
  type Running,
} from "./infra.js";
import { startStack } from "./stack.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const dataDir = join(root, ".data");

function say(message: string): void {
  process.stdout.write(`[stack] ${message}\n`);
}

/** Local secrets are generated once and kept under .data/ so restarts keep keys valid. */
function localSecrets(): Record<string, string> {
  const file = join(dataDir, "local-secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  mkdirSync(dataDir, { recursive: true });
  const secrets = {
    API_KEY_PEPPER: randomBytes(32).toString("base64"),
    KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

async function nats(): Promise<Running> {
  const url = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  if (await natsAnswers(url)) return { url, source: "configured", stop: () => Promise.resolve() };
  if (process.env.NATS_URL) throw new Error(`NATS_URL ${url} does not answer`);
  say(`nothing answers at ${url}: starting a private nats-server under .data/nats`);
  return startPrivateNats(join(dataDir, "nats"));
}

async function database(): Promise<Running> {
  const configured = process.env.DATABASE_URL;
  if (configured) {
    if (!(await postgresAnswers(configured))) throw new Error("DATABASE_URL does not answer");
    return { url: configured, source: "configured", stop: () => Promise.resolve() };
  }
  const local = "postgres://postgres@127.0.0.1:5432/postgres";
  if (await postgresAnswers(local)) {
    return {
      url: await ensureDatabase(local, "pasarela"),
      source: "configured",
      stop: () => Promise.resolve(),
    };
  }
  say("nothing answers at 127.0.0.1:5432: starting a private PostgreSQL under .data/postgres");
  const running = await startPrivatePostgres(join(dataDir, "postgres"));
  return { ...running, url: await ensureDatabase(running.url, "pasarela") };
}

async function main(): Promise<void> {
  const infra: Running[] = [];
  const natsServer = await nats();
  infra.push(natsServer);
  const db = await database();
  infra.push(db);
  const useSimulator = process.env.AUTHORITY !== "real";
  const simulatorCaFile = join(dataDir, "authority-sim-ca.pem");
  const stack = await startStack({
    root,
    natsUrl: natsServer.url,
    databaseUrl: db.url,
    edgePort: Number(process.env.EDGE_PORT ?? 3000),
    simulator: useSimulator
      ? {
          port: Number(process.env.SIM_PORT ?? 4400),
          httpsPort:
            process.env.SIM_HTTPS_PORT === "off"
              ? "off"
              : Number(process.env.SIM_HTTPS_PORT ?? 4401),
          stateFile: join(dataDir, "authority-sim.json"),
          tlsCaFile: simulatorCaFile,
        }
      : undefined,
    env: { ...localSecrets(), ...(process.env.LOG_LEVEL ? {} : { LOG_LEVEL: "warn" }) },
    output: "terminal",
  });
  if (stack.simulatorUrl) {
    say(
      `authority: both environments point at the local simulator ${stack.simulatorUrl} (AUTHORITY=real to use the real hosts)`,
    );
    if (stack.simulatorHttpsUrl) {
      say(
        `the simulator also serves HTTPS at ${stack.simulatorHttpsUrl}; its CA certificate is ${simulatorCaFile}`,
      );
    }
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
