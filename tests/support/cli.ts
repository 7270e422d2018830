import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, whether this runs from tests/support or compiled from tests/dist. */
function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "tsconfig.base.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("repository root not found");
    dir = parent;
  }
  return dir;
}

export const repoRoot = findRoot();

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `npm run -s <script> -- ...args` exactly as an operator would. */
export function npmRun(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<CliRun> {
  return new Promise((done) => {
    execFile(
      "npm",
      ["run", "-s", script, "--", ...args],
      { cwd: repoRoot, env: { ...process.env, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout, stderr: stderr.replace(/^npm warn .*\n/gm, "") });
      },
    );
  });
}

/** Runs a CLI command that must succeed and answers its one JSON object. */
export async function cliJson<T = Record<string, unknown>>(
  script: string,
  args: readonly string[],
  env: Record<string, string>,
): Promise<T> {
  const run = await npmRun(script, args, env);
  if (run.code !== 0)
    throw new Error(`npm run ${script} -- ${args.join(" ")} failed (${run.code}): ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
