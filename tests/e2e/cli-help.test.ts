import { commands as adminCommands, runCli as runAdminCli } from "@pasarela/admin";
import {
  cliCommands as simCommands,
  makeControlClient,
  runSimulatorCli,
  UsageError,
} from "@pasarela/authority-sim";
import { describe, expect, it } from "vitest";
import { npmRun, type CliRun } from "../support/cli.js";

/**
 * Both operator CLIs as an operator runs them (`npm run -s admin|sim -- ...`, built dist/):
 * `--help`, `-h` and `help` print the usage on stdout with exit code 0, for the whole CLI and
 * for every command; no stack is needed for that. The usage of the whole CLI and the errors go
 * through npm as an operator's do; each command's own usage is the same code's answer, asked of
 * the CLI's library (what its entry point prints, with its exit code), rather than through one
 * npm and one Node start per command.
 */

const run = (script: "admin" | "sim", ...args: string[]): Promise<CliRun> =>
  npmRun(script, args, {});

/** What `npm run -s <script> -- ...args` prints and exits with, from the CLI's library. */
async function library(script: "admin" | "sim", ...args: string[]): Promise<CliRun> {
  if (script === "admin") {
    const outcome = await runAdminCli(args, {});
    return { code: outcome.exitCode, stdout: outcome.stdout ?? "", stderr: outcome.stderr ?? "" };
  }
  try {
    const out = await runSimulatorCli(args, makeControlClient("http://127.0.0.1:1"));
    return { code: 0, stdout: out.endsWith("\n") ? out : `${out}\n`, stderr: "" };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      code: error instanceof UsageError ? 2 : 1,
      stdout: "",
      stderr: `${JSON.stringify({ error: message })}\n`,
    };
  }
}

function expectUsage(answer: CliRun, start: string) {
  expect(answer.code, answer.stderr).toBe(0);
  expect(answer.stderr).toBe("");
  expect(answer.stdout.startsWith(start), answer.stdout).toBe(true);
}

describe("admin --help", () => {
  it.each([["--help"], ["-h"], ["help"]])("%s lists every command", async (ask) => {
    const answer = await run("admin", ask);
    expectUsage(answer, "uso: npm run admin -- ");
    for (const c of adminCommands) expect(answer.stdout).toContain(`  ${c.resource} ${c.verb} `);
  });

  it.each(adminCommands.map((c) => [`${c.resource} ${c.verb}`, c] as const))(
    "%s --help prints its flags",
    async (name, command) => {
      const answer = await library("admin", command.resource, command.verb, "--help");
      expectUsage(answer, `uso: npm run admin -- ${name}`);
      for (const flag of Object.keys(command.flags)) expect(answer.stdout).toContain(`--${flag} `);
    },
  );

  it("answers an unknown command or flag with an error naming it and the hint", async () => {
    const unknown = await run("admin", "keys", "create");
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe("");
    expect(JSON.parse(unknown.stderr)).toEqual({
      error: "comando desconocido: keys; usá npm run admin -- --help para ver los comandos",
    });
    const flag = await run("admin", "plan", "list", "--todos", "true");
    expect(flag.code).toBe(1);
    expect(JSON.parse(flag.stderr)).toEqual({
      error:
        "opción desconocida para plan list: --todos; usá npm run admin -- plan list --help para ver sus opciones",
    });
  });
});

describe("sim --help", () => {
  it.each([["--help"], ["-h"], ["help"]])("%s lists every command", async (ask) => {
    const answer = await run("sim", ask);
    expectUsage(answer, "usage: npm run sim -- ");
    for (const c of simCommands) expect(answer.stdout).toContain(`  ${c.name} `);
  });

  it.each(simCommands.map((c) => [c.name, c] as const))(
    "%s --help prints its flags",
    async (name, command) => {
      const answer = await library("sim", name, "--help");
      expectUsage(answer, `usage: npm run sim -- ${name}`);
      for (const flag of Object.keys(command.flags)) expect(answer.stdout).toContain(`--${flag} `);
    },
  );

  it("fault -h and help fault print the same usage as fault --help", async () => {
    const help = await run("sim", "fault", "--help");
    expect((await run("sim", "fault", "-h")).stdout).toBe(help.stdout);
    expect((await run("sim", "help", "fault")).stdout).toBe(help.stdout);
  });

  it("answers an unknown command or flag with an error naming it and the hint", async () => {
    const unknown = await run("sim", "faults");
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stderr)).toEqual({
      error: "unknown command faults; see npm run sim -- --help",
    });
    const flag = await run("sim", "stats", "--environment", "homologacion", "--env", "x");
    expect(flag.code).toBe(2);
    expect(JSON.parse(flag.stderr)).toEqual({
      error: "unknown flag --env for stats; see npm run sim -- stats --help",
    });
  });
});
