// `npm test`, once `tsc -b` has built the repository: every check and test, as CI runs them.
//
//  1. The unit, integration and end-to-end tests (vitest's `unit`, `integration` and `e2e`
//     projects, three files at a time).
//  2. Then the files that kill processes, cut the database off or time recoveries (the
//     `e2e-alone` project), one at a time, so that their figures measure the gateway rather
//     than other files' load.
//
// The linter and the formatter's check run beside step 2, at the lowest CPU priority (nice 19):
// those files leave about half the CPU idle while they wait on restarts and leases, and lint has
// no deadline a slow start could miss. Beside step 1, which keeps both cores busy, they would
// only lengthen it.
// The run fails when any of them fails; a summary of each, with its time, comes last.
import { spawn } from "node:child_process";
import { repoRoot } from "../support/cli.js";

interface Outcome {
  name: string;
  code: number;
  seconds: number;
  output: string;
}

/** Runs a command from the repository root; `quiet` keeps its output for the summary. */
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

async function lint(): Promise<Outcome[]> {
  const eslint = await run(
    "eslint",
    "npx",
    ["--no-install", "eslint", "--max-warnings", "0", "."],
    {
      quiet: true,
      nice: true,
    },
  );
  const prettier = await run("prettier", "npx", ["--no-install", "prettier", "--check", "."], {
    quiet: true,
    nice: true,
  });
  return [eslint, prettier];
}

const vitest = (project: string[]) =>
  run(`vitest ${project.join(" ")}`, "npx", [
    "--no-install",
    "vitest",
    "run",
    ...project.flatMap((p) => ["--project", p]),
  ]);

async function main(): Promise<void> {
  const shared = await vitest(["unit", "integration", "e2e"]);
  const [alone, checks] = await Promise.all([vitest(["e2e-alone"]), lint()]);
  const outcomes = [shared, alone, ...checks];
  for (const { name, code, output } of checks) {
    if (code !== 0) process.stdout.write(`\n[${name}] failed:\n${output}`);
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
