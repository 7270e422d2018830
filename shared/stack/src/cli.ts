#!/usr/bin/env node
// `npm start`: the whole gateway on one machine. NATS and PostgreSQL come from NATS_URL and
// DATABASE_URL, else the local defaults, else private servers under .data/ when the binaries
// are installed. Both authority environments point at the simulator unless AUTHORITY=real.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  natsAuthorization,
  natsGrants,
  natsPasswordVariable,
  newNatsPassword,
  type NatsIdentity,
} from "@pasarela/contracts";
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

const LOCAL_SECRETS = ["API_KEY_PEPPER", "KEY_ENCRYPTION_KEY", "CURSOR_KEY"] as const;

/**
 * Local secrets are generated once and kept under .data/ so restarts keep keys valid; one
 * added since the file was written is generated beside the kept ones.
 */
function localSecrets(): Record<string, string> {
  const file = join(dataDir, "local-secrets.json");
  const kept = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>)
    : {};
  const secrets = Object.fromEntries(
    LOCAL_SECRETS.map((name) => [name, kept[name] ?? randomBytes(32).toString("base64")]),
  );
  if (LOCAL_SECRETS.some((name) => kept[name] === undefined)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify({ ...kept, ...secrets }, null, 2), { mode: 0o600 });
  }
  return { ...kept, ...secrets };
}

/** One NATS password per identity (deploy/nats), generated once and kept under .data/. */
function natsPasswords(): Record<NatsIdentity, string> {
  const file = join(dataDir, "nats-passwords.json");
  const kept = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as Partial<Record<NatsIdentity, string>>)
    : {};
  const identities = Object.keys(natsGrants) as NatsIdentity[];
  const passwords = Object.fromEntries(
    identities.map((id) => [id, kept[id] ?? newNatsPassword()]),
  ) as Record<NatsIdentity, string>;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(passwords, null, 2), { mode: 0o600 });
  return passwords;
}

/**
 * The configured NATS when it answers; else a private nats-server that grants each process
 * only its subjects (deploy/nats), each service connecting as its own user and the operator
 * CLI as `admin` with the settings written to .data/operator.env.
 */
async function nats(): Promise<Running & { passwords?: Record<NatsIdentity, string> }> {
  const url = process.env.NATS_URL ?? "nats://127.0.0.1:4222";
  if (await natsAnswers(url)) return { url, source: "configured", stop: () => Promise.resolve() };
  if (process.env.NATS_URL) throw new Error(`NATS_URL ${url} does not answer`);
  say(`nothing answers at ${url}: starting a private nats-server under .data/nats`);
  const passwords = natsPasswords();
  const configFile = join(dataDir, "nats-authorization.conf");
  writeFileSync(configFile, natsAuthorization());
  const running = await startPrivateNats(join(dataDir, "nats"), {
    configFile,
    env: Object.fromEntries(
      (Object.keys(passwords) as NatsIdentity[]).map((id) => [
        natsPasswordVariable(id),
        passwords[id],
      ]),
    ),
  });
  const operatorEnv = join(dataDir, "operator.env");
  writeFileSync(
    operatorEnv,
    `NATS_URL=${running.url}\nNATS_USER=admin\nNATS_PASSWORD=${passwords.admin}\n`,
    { mode: 0o600 },
  );
  say(
    `every service has its own NATS user; the operator CLI's settings are in ${operatorEnv} (set -a; . ${operatorEnv})`,
  );
  return { ...running, passwords };
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
    // unless MERCADOPAGO_API_URL names the real API, payment links go to a local stand-in
    paymentsSimulator: process.env.MERCADOPAGO_API_URL
      ? undefined
      : { port: Number(process.env.PAYMENTS_SIM_PORT ?? 4500) },
    // unless SMTP_URL names a real relay, e-mails stay on this machine under .data/mail
    mailSink: process.env.SMTP_URL
      ? undefined
      : { directory: join(dataDir, "mail"), port: Number(process.env.MAIL_SINK_PORT ?? 2525) },
    env: {
      ...localSecrets(),
      ...(process.env.LOG_LEVEL ? {} : { LOG_LEVEL: "warn" }),
      ...(process.env.PDF_STORAGE_DIR ? {} : { PDF_STORAGE_DIR: join(dataDir, "pdf") }),
    },
    natsPasswords: natsServer.passwords,
    output: "terminal",
    // Prometheus metrics of each service on its own port, from METRICS_PORT_BASE (9464)
    metrics:
      process.env.METRICS_PORT_BASE === "off"
        ? undefined
        : { portBase: Number(process.env.METRICS_PORT_BASE ?? 9464) },
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
  const metrics = Object.entries(stack.metricsUrls);
  if (metrics.length > 0) {
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
