// `npm test`, once `tsc -b` has built the repository: every check and test, as CI runs them.
//
//  1. The unit, integration and end-to-end tests (vitest's `unit`, `integration` and `e2e`
//     projects, three files at a time), which keep both cores busy.
//  2. The files that kill processes, cut the database off or time recoveries (the `e2e-alone`
//     project), after them and never beside them, so that their figures measure the gateway
//     rather than other files' load. They run in two lanes: the cluster test, which paces its
//     own load (about five issuances a second) and leaves half the CPU idle for three minutes,
//     beside the short ones, which mostly wait on restarts and leases (failover, exactly-once,
//     faults, the NATS cluster); then the chaos test, which takes all the CPU it gets, alone.
//
// The linter and the formatter's check run beside step 2 at the lowest CPU priority (nice 19):
// they take the CPU those files leave idle, and they have no deadline a slow start could miss.
// The run fails when any of them fails; a summary of each, with its time, comes last.
import { spawn } from "node:child_process";
import { relative } from "node:path";
import { repoRoot } from "../support/cli.js";

/** The `e2e-alone` file that paces its load, and the one that runs alone. */
const PACED = "tests/e2e/cluster.test.ts";
const BUSY = "tests/e2e/chaos.test.ts";
const PROJECT = ["--project", "e2e-alone"];

interface Outcome {
  name: string;
  code: number;
  seconds: number;
  output: string;
}

/** Runs a command from the repository root; `quiet` keeps its output for later. */
function run(
  name: string,
  command: string,
  args: readonly string[],
  options: { quiet?: boolean; nice?: boolean } = {},
): Promise<Outcome> {
  const started = performance.now();
  const [file, argv] = options.nice ? ["nice", ["-n", "19", command, ...args]] : [command, args];
  return new Promise((resolve) => {
    const child = spawn(file, argv, {
      cwd: repoRoot,
      stdio: options.quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const done = (code: number) =>
      resolve({ name, code, seconds: (performance.now() - started) / 1000, output });
    child.once("error", (error) => {
      output += `${error.message}\n`;
      done(1);
    });
    child.once("close", (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const npx = (name: string, args: readonly string[], options: { quiet?: boolean; nice?: boolean }) =>
  run(name, "npx", ["--no-install", ...args], options);

const vitest = (name: string, args: readonly string[], quiet = false) =>
  npx(`vitest ${name}`, ["vitest", "run", ...args], { quiet });

async function lint(): Promise<Outcome[]> {
  const eslint = await npx("eslint", ["eslint", "--max-warnings", "0", "."], {
    quiet: true,
    nice: true,
  });
  const prettier = await npx("prettier", ["prettier", "--check", "."], {
    quiet: true,
    nice: true,
  });
  return [eslint, prettier];
}

/** The files of the `e2e-alone` project, relative to the repository root, as vitest lists them. */
async function aloneFiles(): Promise<string[]> {
  const listed = await npx("vitest list", ["vitest", "list", "--filesOnly", "--json", ...PROJECT], {
    quiet: true,
  });
  if (listed.code !== 0) throw new Error(`vitest list failed: ${listed.output}`);
  const files = JSON.parse(listed.output.slice(listed.output.indexOf("["))) as { file: string }[];
  return files.map(({ file }) => relative(repoRoot, file));
}

async function alone(): Promise<Outcome[]> {
  const files = await aloneFiles();
  for (const file of [PACED, BUSY]) {
    if (!files.includes(file)) throw new Error(`${file} is not in the e2e-alone project`);
  }
  const short = files.filter((file) => file !== PACED && file !== BUSY);
  const [paced, shortRun] = await Promise.all([
    vitest("cluster", [...PROJECT, PACED]),
    // printed once it ends, rather than line by line among the cluster test's
    vitest("short alone files", [...PROJECT, ...short], true),
  ]);
  process.stdout.write(shortRun.output);
  const busy = await vitest("chaos", [...PROJECT, BUSY]);
  return [paced, shortRun, busy];
}

async function main(): Promise<void> {
  const shared = await vitest("unit integration e2e", [
    ...["--project", "unit", "--project", "integration", "--project", "e2e"],
  ]);
  const [lanes, checks] = await Promise.all([
    alone().catch((error: unknown): Outcome[] => [
      { name: "e2e-alone", code: 1, seconds: 0, output: String(error) },
    ]),
    lint(),
  ]);
  const outcomes = [shared, ...lanes, ...checks];
  for (const { name, code, output } of [...lanes, ...checks]) {
    if (code !== 0 && output !== "") process.stdout.write(`\n[${name}] failed:\n${output}`);
  }
  process.stdout.write("\n");
  for (const { name, code, seconds } of outcomes) {
    process.stdout.write(
      `[npm test] ${name}: ${code === 0 ? "passed" : `FAILED (${code})`} in ${seconds.toFixed(0)} s\n`,
    );
  }
  process.exitCode = outcomes.some((o) => o.code !== 0) ? 1 : 0;
}

void main();
