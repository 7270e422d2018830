// The stack `npm start` runs on one machine: the NATS and PostgreSQL it uses and the launcher
// options. `npm run bench` calls the same functions, with its own data folder and database and,
// on a shared NATS server, a subject prefix and free ports, so it measures what `npm start` runs.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { NatsIdentity } from "@pasarela/contracts";
import {
  ensureDatabase,
  natsAnswers,
  postgresAnswers,
  startPrivateNats,
  startPrivatePostgres,
  type Running,
} from "@pasarela/servers";
import { startPrivateNatsCluster, type NatsNode } from "./nats-cluster.js";
import { gatewayServices, type StackOptions, type Topology } from "./stack.js";

/** Where a local stack keeps its state, and the variables it reads its settings from. */
export interface LocalSettings {
  /** repository root (holds services/ and local/) */
  root: string;
  /** secrets, NATS passwords, the simulator's state, e-mails, PDFs (`.data/` for npm start) */
  dataDir: string;
  /** the variables read (process.env for npm start) */
  env: Readonly<Record<string, string | undefined>>;
  /** what the stack tells its operator */
  say: (message: string) => void;
}

/**
 * The NATS server of a local stack; with `passwords` when it is a private one with grants, and
 * its `nodes` when it is a private cluster (`url` then lists them all).
 */
export type LocalNats = Running & {
  passwords?: Record<NatsIdentity, string> | undefined;
  nodes?: NatsNode[] | undefined;
};

/** The database of a local stack, and the server it lives on. */
export type LocalDatabase = Running & { serverUrl: string };

const LOCAL_SECRETS = ["API_KEY_PEPPER", "KEY_ENCRYPTION_KEY", "CURSOR_KEY"] as const;

/** The NATS server `npm start` uses when NATS_URL names none. */
export const LOCAL_NATS_URL = "nats://127.0.0.1:4222";
/** The PostgreSQL server `npm start` uses when DATABASE_URL names none. */
export const LOCAL_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Local secrets are generated once and kept in the data folder so restarts keep keys valid;
 * one added since the file was written is generated beside the kept ones.
 */
export function localSecrets(dataDir: string): Record<string, string> {
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

/**
 * The contracts (every subject's schemas) are read only to write a private server's grants:
 * the launcher that finds a NATS server running never holds them.
 */
const contracts = () => import("@pasarela/contracts");

/** One NATS password per identity (deploy/nats), generated once and kept in the data folder. */
async function natsPasswords(dataDir: string): Promise<Record<NatsIdentity, string>> {
  const { natsGrants, newNatsPassword } = await contracts();
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
 * NATS_URL when it answers, else whatever answers at `fallbackUrl`; else a private nats-server
 * under the data folder that grants each process only its subjects (deploy/nats), each
 * service connecting as its own user and the operator CLI as `admin` with the settings
 * written to `operator.env` there.
 */
export async function localNats(
  settings: LocalSettings,
  fallbackUrl = LOCAL_NATS_URL,
  options: { cluster?: boolean } = {},
): Promise<LocalNats> {
  const { dataDir, env, say } = settings;
  const url = env.NATS_URL ?? fallbackUrl;
  if (options.cluster) {
    // the cluster is always a private one: a configured server is not what was asked for
    if (env.NATS_URL) throw new Error("--cluster starts its own nats-servers: unset NATS_URL");
  } else {
    if (await natsAnswers(url)) return { url, source: "configured", stop: () => Promise.resolve() };
    if (env.NATS_URL) throw new Error(`NATS_URL ${url} does not answer`);
    say(`nothing answers at ${url}: starting a private nats-server under ${join(dataDir, "nats")}`);
  }
  const { natsAuthorization, natsPasswordVariable } = await contracts();
  const passwords = await natsPasswords(dataDir);
  const configFile = join(dataDir, "nats-authorization.conf");
  writeFileSync(configFile, natsAuthorization());
  const serverEnv = Object.fromEntries(
    (Object.keys(passwords) as NatsIdentity[]).map((id) => [
      natsPasswordVariable(id),
      passwords[id],
    ]),
  );
  const running: Running & { nodes?: NatsNode[] } = options.cluster
    ? await startPrivateNatsCluster(join(dataDir, "nats-cluster"), {
        configFile,
        env: serverEnv,
      })
    : await startPrivateNats(join(dataDir, "nats"), { configFile, env: serverEnv });
  if (options.cluster) {
    say(
      `a JetStream cluster of 3 nats-servers under ${join(dataDir, "nats-cluster")}: ${running.url}`,
    );
  }
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

/**
 * DATABASE_URL when set (its own database, unless `database` names another on that server),
 * else `database` (default `pasarela`) on the local PostgreSQL, else on a private PostgreSQL
 * under the data folder.
 */
export async function localDatabase(
  settings: LocalSettings,
  database?: string,
): Promise<LocalDatabase> {
  const { dataDir, env, say } = settings;
  const configured = env.DATABASE_URL;
  const onServer = async (server: Running): Promise<LocalDatabase> => ({
    ...server,
    serverUrl: server.url,
    url: await ensureDatabase(server.url, database ?? "pasarela"),
  });
  if (configured) {
    if (!(await postgresAnswers(configured))) throw new Error("DATABASE_URL does not answer");
    const server = {
      url: configured,
      source: "configured" as const,
      stop: () => Promise.resolve(),
    };
    return database === undefined ? { ...server, serverUrl: configured } : onServer(server);
  }
  if (await postgresAnswers(LOCAL_POSTGRES_URL)) {
    return onServer({
      url: LOCAL_POSTGRES_URL,
      source: "configured",
      stop: () => Promise.resolve(),
    });
  }
  say(
    `nothing answers at 127.0.0.1:5432: starting a private PostgreSQL under ${join(dataDir, "postgres")}`,
  );
  return onServer(await startPrivatePostgres(join(dataDir, "postgres")));
}

/** What a local stack needs beyond its settings: its servers, and how it is kept apart. */
export interface LocalStackInput extends LocalSettings {
  natsUrl: string;
  databaseUrl: string;
  natsPasswords?: Readonly<Record<string, string>> | undefined;
  /**
   * Beside another stack on the same machine: every port a free one (a port number in the
   * variables is not used; `off` still is), and this subject prefix on a shared NATS server.
   */
  isolated?: { prefix: string | undefined } | undefined;
  /**
   * `natsUrl` is a 3-node cluster (localNats with `cluster`): the streams get 3 replicas
   * (NATS_STREAM_REPLICAS) and every gateway service runs 2 processes
   */
  cluster?: boolean | undefined;
  /** every service in one process (the default), or one per service (always so on a cluster) */
  topology?: Topology | undefined;
}

/**
 * The launcher options of `npm start`. The variables read: EDGE_PORT, AUTHORITY
 * (`real`: no simulator), SIM_PORT, SIM_HTTPS_PORT (`off`), MERCADOPAGO_API_URL and
 * PAYMENTS_SIM_PORT, SMTP_URL and MAIL_SINK_PORT, METRICS_PORT_BASE (`off`), LOG_LEVEL and
 * PDF_STORAGE_DIR.
 */
export function localStackOptions(input: LocalStackInput): StackOptions {
  const { root, dataDir, env, isolated } = input;
  /** a port from a variable or its default; a free one for an isolated stack */
  const port = (variable: string, fallback: number): number | undefined =>
    isolated ? undefined : Number(env[variable] ?? fallback);
  return {
    root,
    natsUrl: input.natsUrl,
    databaseUrl: input.databaseUrl,
    prefix: isolated?.prefix,
    topology: input.cluster ? "processes" : (input.topology ?? "one"),
    edgePort: port("EDGE_PORT", 3000),
    simulator:
      env.AUTHORITY === "real"
        ? undefined
        : {
            port: port("SIM_PORT", 4400),
            httpsPort: env.SIM_HTTPS_PORT === "off" ? "off" : port("SIM_HTTPS_PORT", 4401),
            stateFile: join(dataDir, "authority-sim.json"),
            tlsCaFile: join(dataDir, "authority-sim-ca.pem"),
          },
    // unless MERCADOPAGO_API_URL names the real API, payment links go to a local stand-in
    paymentsSimulator: env.MERCADOPAGO_API_URL
      ? undefined
      : { port: port("PAYMENTS_SIM_PORT", 4500) },
    // unless SMTP_URL names a real relay, e-mails stay on this machine under the data folder
    mailSink: env.SMTP_URL
      ? undefined
      : { directory: join(dataDir, "mail"), port: port("MAIL_SINK_PORT", 2525) },
    env: {
      ...localSecrets(dataDir),
      ...(env.LOG_LEVEL ? {} : { LOG_LEVEL: "warn" }),
      ...(env.PDF_STORAGE_DIR ? {} : { PDF_STORAGE_DIR: join(dataDir, "pdf") }),
      ...(input.cluster ? { NATS_STREAM_REPLICAS: "3" } : {}),
    },
    ...(input.cluster
      ? { replicas: Object.fromEntries(gatewayServices.map((name) => [name, 2])) }
      : {}),
    natsPasswords: input.natsPasswords,
    output: "terminal",
    // Prometheus metrics at METRICS_PORT_BASE (9464): the one process's, or each service's
    // process's on its own port from there
    metrics:
      env.METRICS_PORT_BASE === "off" ? undefined : { portBase: port("METRICS_PORT_BASE", 9464) },
  };
}
