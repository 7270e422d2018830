import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { connect as tcpConnect, createServer } from "node:net";
import { join } from "node:path";
import postgres from "postgres";

/** A running dependency: where it answers and how to stop it if we started it. */
export interface Running {
  url: string;
  /** who provides it: configuration, a container, or a private process of ours */
  source: "configured" | "container" | "private";
  /** the server's process, when it is a private process of ours */
  pid?: number | undefined;
  stop(): Promise<void>;
}

/** Whether nothing listens on 127.0.0.1:`port` (0: the kernel picks one); the port if so. */
async function bindable(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined));
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

const BLOCK_SIZE = 1_024;
const BLOCKS = 12;

/**
 * The ports this process hands out, when it is one of several test workers: a block of its own
 * below the kernel's ephemeral range, chosen by the worker's pool id. A port the kernel picks
 * is free only until someone binds it, and a process told to use it binds it a second later:
 * two picks in that window (two services of one stack, or two workers) can be the same port.
 * Ports of a block are never picked by the kernel for anyone and belong to one worker.
 */
function portBlock(): { first: number; size: number } | undefined {
  const poolId = Number(process.env.VITEST_POOL_ID);
  if (!Number.isInteger(poolId) || poolId < 1) return undefined;
  let ephemeralLow = 32_768;
  try {
    const range = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8");
    ephemeralLow = Number(range.trim().split(/\s+/)[0]) || ephemeralLow;
  } catch {
    // not Linux: the default range
  }
  const first = ephemeralLow - BLOCKS * BLOCK_SIZE + ((poolId - 1) % BLOCKS) * BLOCK_SIZE;
  return first >= 1_024 ? { first, size: BLOCK_SIZE } : undefined;
}

const block = portBlock();
// start anywhere in the block, so a worker's next test file does not retry the same ports first
let cursor = block ? Math.floor(Math.random() * block.size) : 0;
// the ports the kernel picked for this process (outside a block)
const handedOut = new Set<number>();

/**
 * A port nothing listens on, for a process about to be started. In a test worker it comes from
 * the worker's own block (see `portBlock`), and a port comes back only after the whole block
 * has gone round; elsewhere (or with the whole block taken) the kernel picks, and this process
 * never takes the same one twice.
 */
export async function freePort(): Promise<number> {
  for (let tried = 0; block && tried < block.size; tried++) {
    const port = await bindable(block.first + (cursor++ % block.size));
    if (port !== undefined) return port;
  }
  for (let tried = 0; tried < 100; tried++) {
    const port = await bindable(0);
    if (port === undefined || handedOut.has(port)) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error("no free TCP port on 127.0.0.1");
}

export async function tcpAnswers(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host, port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

export async function natsAnswers(url: string): Promise<boolean> {
  const parsed = new URL(url.replace(/^nats:/, "http:"));
  return tcpAnswers(parsed.hostname, Number(parsed.port || 4222));
}

export async function postgresAnswers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

export function binaryPath(name: string, extraDirs: string[] = []): string | undefined {
  for (const dir of [
    ...extraDirs,
    ...(process.env.PATH ?? "").split(":"),
    "/usr/sbin",
    "/usr/local/bin",
  ]) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Resolves once `check` answers true, or fails naming `what` after `timeoutMs`. */
export async function waitUntil(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms`);
}

function stopProcess(child: ChildProcess, timeoutMs = 5_000): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * A private nats-server with JetStream, storing under `dataDir`, on a free port (or on `port`,
 * to bring a killed server back where its clients reconnect). `configFile` adds a server
 * configuration (deploy/nats: users and their grants), whose `$VARIABLES` come from `env`.
 */
export async function startPrivateNats(
  dataDir: string,
  options: { port?: number; configFile?: string; env?: Record<string, string> } = {},
): Promise<Running> {
  const binary = binaryPath("nats-server");
  if (!binary) throw new Error("nats-server is not installed");
  mkdirSync(dataDir, { recursive: true });
  const port = options.port ?? (await freePort());
  const config = options.configFile ? ["-c", options.configFile] : [];
  const args = [...config, "-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dataDir];
  const child = spawn(binary, args, {
    stdio: "ignore",
    env: { ...process.env, ...options.env },
  });
  const url = `nats://127.0.0.1:${port}`;
  await waitUntil(() => tcpAnswers("127.0.0.1", port), "private nats-server");
  return { url, source: "private", pid: child.pid, stop: () => stopProcess(child) };
}

/** Debian keeps the server binaries per major version; the newest installed one wins. */
function pgBinDirs(): string[] {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a))
    .map((v) => join(root, v, "bin"));
}

/**
 * A private PostgreSQL cluster under `dataDir` (initialised on first use), trust auth, on a
 * free port. initdb refuses to run as root, so as root it runs as the `postgres` user.
 */
export async function startPrivatePostgres(dataDir: string): Promise<Running> {
  const initdb = binaryPath("initdb", pgBinDirs());
  const pgCtl = binaryPath("pg_ctl", pgBinDirs());
  if (!initdb || !pgCtl)
    throw new Error("PostgreSQL server binaries (initdb, pg_ctl) are not installed");
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? lookupUser("postgres") : undefined;
  if (asRoot && !owner)
    throw new Error("running as root needs a 'postgres' user to own a private cluster");
  const run = (command: string, args: string[]) => {
    const result = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8" })
      : spawnSync(command, args, { encoding: "utf8" });
    if (result.status !== 0)
      throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
  mkdirSync(dataDir, { recursive: true });
  if (owner) {
    chownSync(dataDir, owner.uid, owner.gid);
    chmodSync(dataDir, 0o700);
  }
  const pgdata = join(dataDir, "pgdata");
  if (!existsSync(join(pgdata, "PG_VERSION"))) {
    mkdirSync(pgdata, { recursive: true });
    if (owner) chownSync(pgdata, owner.uid, owner.gid);
    chmodSync(pgdata, 0o700);
    run(initdb, ["-D", pgdata, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    writeFileSync(join(pgdata, "postgresql.auto.conf"), "fsync = off\nmax_connections = 300\n");
  }
  const port = await freePort();
  run(pgCtl, [
    "-D",
    pgdata,
    "-l",
    join(dataDir, "postgres.log"),
    "-o",
    `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1`,
    "-w",
    "start",
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await waitUntil(() => postgresAnswers(url), "private PostgreSQL");
  return {
    url,
    source: "private",
    stop: () => {
      try {
        run(pgCtl, ["-D", pgdata, "-m", "fast", "-w", "stop"]);
      } catch {
        // already stopped
      }
      return Promise.resolve();
    },
  };
}

function lookupUser(name: string): { uid: number; gid: number } | undefined {
  const result = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const group = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (result.status !== 0 || group.status !== 0) return undefined;
  return { uid: Number(result.stdout.trim()), gid: Number(group.stdout.trim()) };
}

/** Creates `database` on the server of `url` if it does not exist; returns its URL. */
export async function ensureDatabase(url: string, database: string): Promise<string> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const rows = await sql`select 1 from pg_database where datname = ${database}`;
    if (rows.length === 0) await sql.unsafe(`create database "${database}"`);
  } finally {
    await sql.end({ timeout: 1 });
  }
  const target = new URL(url);
  target.pathname = `/${database}`;
  return target.toString();
}
