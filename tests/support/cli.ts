import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

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
