// `npm run bench:footprint`: what `npm start` costs the machine, measured from outside as a
// user measures it. For each topology (every service in one process, `npm start`'s default;
// one process per service, `npm start -- --processes`), it runs `npm start` itself with a data
// folder, a database and a subject prefix of its own and free ports, and then:
//  1. times the first start to a green /readyz;
//  2. registers an account, a key and a representada with its certificate (over the bus, as
//     the operator CLI does), issues one voucher through the API and fetches its PDF;
//  3. after FOOTPRINT_IDLE_MS (10 s) idle, reads the resident memory (RSS, from /proc) of every
//     Node process of the stack, npm's own apart;
//  4. stops it with Ctrl-C (SIGINT), starts it again on the same state (already built) and
//     times the second start to a green /readyz.
// FOOTPRINT_TOPOLOGIES=one (or processes) measures one topology only.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeControlClient } from "@pasarela/authority-sim";
import { connectBus, type Bus } from "@pasarela/bus";
import { freePort, LOCAL_NATS_URL, LOCAL_POSTGRES_URL, type Topology } from "@pasarela/stack";
import { createLogger, startTracing } from "@pasarela/telemetry";
import { dropDatabase } from "@pasarela/testing";
import { repoRoot } from "../support/cli.js";
import { facturaBody, registerIssuer } from "./issuer.js";

const IDLE_MS = Number(process.env.FOOTPRINT_IDLE_MS ?? 10_000);
const TOPOLOGIES = (process.env.FOOTPRINT_TOPOLOGIES ?? "one,processes")
  .split(",")
  .filter((t): t is Topology => t === "one" || t === "processes");
const CUIT = "20111111112";
const PTO_VTA = 3;

interface ProcessMemory {
  pid: number;
  /** what the process runs: npm, the launcher, the stand-ins, the gateway or one service */
  what: string;
  rssMb: number;
}

/** Every process below `root` (itself included), from /proc. */
function tree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while the table was read
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const child of parents.get(pid) ?? []) walk(child);
  };
  walk(root);
  return out;
}

/** The Node processes of the tree with their RSS, each named by what it runs. */
function memoryOf(root: number): ProcessMemory[] {
  const out: ProcessMemory[] = [];
  for (const pid of tree(root)) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      // npm names its process `npm start` (one word with a space, its own title)
      const npm = /^npm( |$)/.test(args[0] ?? "");
      if (!npm && !/(^|\/)node$/.test(args[0] ?? "")) continue;
      const rss = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      const script = args.find((a) => a.endsWith(".js")) ?? "";
      const what = npm
        ? "npm"
        : script.endsWith("stack/dist/src/cli.js")
          ? "launcher"
          : script.endsWith("stand-ins.js")
            ? "stand-ins"
            : script.endsWith("server/dist/src/main.js")
              ? `gateway (${args.at(-1) ?? ""})`
              : script;
      out.push({ pid, what, rssMb: Number(rss?.[1] ?? 0) / 1024 });
    } catch {
      // gone
    }
  }
  return out;
}

async function readyWithin(url: string, child: ChildProcess, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url}/readyz not green within ${timeoutMs} ms`);
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    // Ctrl-C reaches the whole foreground group: npm and the launcher below it
    process.kill(-child.pid!, "SIGINT");
  });
}

interface Measured {
  topology: Topology;
  firstStartMs: number;
  secondStartMs: number;
  processes: ProcessMemory[];
}

async function measure(topology: Topology): Promise<Measured> {
  const dataDir = mkdtempSync(join(tmpdir(), "pasarela-footprint-"));
  const database = `pasarela_footprint_${process.pid}`;
  const prefix = `footprint${randomBytes(3).toString("hex")}`;
  const edgePort = await freePort();
  const simPort = await freePort();
  const dbUrl = new URL(process.env.DATABASE_URL ?? LOCAL_POSTGRES_URL);
  dbUrl.pathname = `/${database}`;
  const env: Record<string, string | undefined> = {
    ...process.env,
    PASARELA_DATA_DIR: dataDir,
    NATS_URL: process.env.NATS_URL ?? LOCAL_NATS_URL,
    NATS_PREFIX: prefix,
    DATABASE_URL: dbUrl.toString(),
    EDGE_PORT: String(edgePort),
    SIM_PORT: String(simPort),
    SIM_HTTPS_PORT: "off",
    PAYMENTS_SIM_PORT: String(await freePort()),
    MAIL_SINK_PORT: String(await freePort()),
    METRICS_PORT_BASE: "off",
  };
  // the database is made as the operator makes it: npm start migrates it
  const { ensureDatabase } = await import("@pasarela/stack");
  await ensureDatabase(process.env.DATABASE_URL ?? LOCAL_POSTGRES_URL, database);
  const gateway = `http://127.0.0.1:${edgePort}`;
  const start = () =>
    spawn("npm", ["start", ...(topology === "processes" ? ["--", "--processes"] : [])], {
      cwd: repoRoot,
      env,
      stdio: "ignore",
      detached: true,
    });
  try {
    let npm = start();
    const firstStartMs = await readyWithin(gateway, npm, 120_000);

    const logger = createLogger({ service: "footprint", level: "warn" });
    const tracer = startTracing({ service: "footprint" }).tracer;
    const buses: Bus[] = [];
    const simulatorUrl = `http://127.0.0.1:${simPort}`;
    const issuer = await registerIssuer(
      {
        simulatorUrl,
        connect: async (identity) => {
          const bus = await connectBus({
            url: env.NATS_URL!,
            prefix,
            name: `footprint-${identity}`,
            logger,
            tracer,
          });
          buses.push(bus);
          return bus;
        },
      },
      makeControlClient(simulatorUrl),
      { cuit: CUIT, alias: "footprint", ptoVtas: [PTO_VTA] },
    );
    await Promise.all(buses.map((bus) => bus.close()));
    const issued = await fetch(`${gateway}/api/wsfe/facturas`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${issuer.writeSecret}`,
        "content-type": "application/json",
      },
      body: facturaBody(CUIT, PTO_VTA, 11),
    });
    const answer = (await issued.json()) as { cae?: string; pdfUrl?: string };
    if (issued.status !== 200 || !answer.pdfUrl) {
      throw new Error(`the issuance answered ${issued.status}: ${JSON.stringify(answer)}`);
    }
    const pdf = await fetch(answer.pdfUrl);
    if (pdf.status !== 200) throw new Error(`the PDF answered ${pdf.status}`);
    await pdf.arrayBuffer();
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const processes = memoryOf(npm.pid!);

    await stopped(npm);
    npm = start();
    const secondStartMs = await readyWithin(gateway, npm, 120_000);
    await stopped(npm);
    return { topology, firstStartMs, secondStartMs, processes };
  } finally {
    await dropDatabase(process.env.DATABASE_URL ?? LOCAL_POSTGRES_URL, database).catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const mb = (n: number) => `${Math.round(n)} MB`;

async function main(): Promise<void> {
  const results: Measured[] = [];
  for (const topology of TOPOLOGIES) results.push(await measure(topology));
  const lines: string[] = [
    `| topology | Node processes (npm aside) | their RSS, idle after one issuance | npm's own | first start to /readyz | second start to /readyz |`,
    `| --- | --- | --- | --- | --- | --- |`,
  ];
  for (const r of results) {
    const stack = r.processes.filter((p) => p.what !== "npm");
    const npm = r.processes.filter((p) => p.what === "npm");
    lines.push(
      `| ${r.topology} | ${stack.length} | ${mb(stack.reduce((s, p) => s + p.rssMb, 0))} | ${mb(npm.reduce((s, p) => s + p.rssMb, 0))} | ${(r.firstStartMs / 1000).toFixed(1)} s | ${(r.secondStartMs / 1000).toFixed(1)} s |`,
    );
  }
  for (const r of results) {
    lines.push(
      "",
      `${r.topology}: ${r.processes.map((p) => `${p.what} ${mb(p.rssMb)}`).join(", ")}`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
