import { describe, expect, it } from "vitest";
import { commands, parseFlags, runCli } from "../src/index.js";

const errorOf = (outcome: { stderr?: string }) =>
  (JSON.parse(outcome.stderr ?? "{}") as { error: string }).error;

describe("admin CLI", () => {
  it("parses --flag value pairs", () => {
    expect(parseFlags(["--account", "a1", "--pto-vta", "3"])).toEqual({
      flags: { account: "a1", "pto-vta": "3" },
    });
    expect(parseFlags(["--account"])).toEqual({ error: "falta el valor de --account" });
    expect(parseFlags(["--account", "a1", "--help"])).toEqual({ help: true });
    expect(parseFlags(["--account", "--help"])).toEqual({ help: true });
    expect(parseFlags(["-h"])).toEqual({ help: true });
  });

  it.each([["--help"], ["-h"], ["help"]])(
    "answers %s with every command on stdout",
    async (ask) => {
      const outcome = await runCli([ask]);
      expect(outcome.exitCode).toBe(0);
      expect(outcome.stderr).toBeUndefined();
      for (const c of commands) expect(outcome.stdout).toContain(`  ${c.resource} ${c.verb} `);
    },
  );

  it("answers each command's --help with its usage, derived from the flags the parser takes", async () => {
    for (const command of commands) {
      const name = `${command.resource} ${command.verb}`;
      const outcome = await runCli([command.resource, command.verb, "--help"]);
      expect(outcome.exitCode, name).toBe(0);
      const help = outcome.stdout ?? "";
      expect(help.startsWith(`uso: npm run admin -- ${name}`), help).toBe(true);
      for (const [flag, definition] of Object.entries(command.flags)) {
        const required = !definition.schema.safeParse(undefined).success;
        expect(help, `${name} --${flag}`).toContain(`--${flag} `);
        expect(help, `${name} --${flag}`).toContain(
          `${required ? "obligatoria" : "opcional"}${required ? ": " : ""}`,
        );
        expect(help, `${name} --${flag}`).toContain(definition.help);
      }
      // what the help calls required is what the parser asks for first
      const firstRequired = Object.entries(command.flags).find(
        ([, definition]) => !definition.schema.safeParse(undefined).success,
      );
      if (firstRequired) {
        const missing = await runCli([command.resource, command.verb]);
        expect(missing.exitCode, name).toBe(1);
        expect(errorOf(missing), name).toContain(`--${firstRequired[0]}:`);
      }
    }
  });

  it("answers help <resource> <verb> and <resource> --help as well", async () => {
    const helped = await runCli(["help", "key", "create"]);
    expect(helped.exitCode).toBe(0);
    expect(helped.stdout).toContain("--scope read_only|read_write");
    const resource = await runCli(["key", "--help"]);
    expect(resource.exitCode).toBe(0);
    expect(resource.stdout).toContain("key revoke");
    expect(resource.stdout).not.toContain("plan create");
  });

  it("answers an unknown command with an error naming it and pointing at --help", async () => {
    for (const argv of [["nope"], ["key", "nope"], ["help", "nope"]]) {
      const outcome = await runCli(argv);
      expect(outcome.exitCode).toBe(1);
      expect(outcome.stdout).toBeUndefined();
      expect(errorOf(outcome)).toContain(argv.filter((a) => a !== "help").join(" "));
      expect(errorOf(outcome)).toContain("--help");
    }
  });

  it("names an unknown flag and points at the command's --help", async () => {
    const outcome = await runCli(["key", "create", "--acount", "x", "--scope", "read_only"]);
    expect(outcome.exitCode).toBe(1);
    expect(errorOf(outcome)).toContain("--acount");
    expect(errorOf(outcome)).toContain("npm run admin -- key create --help");
  });

  it("names the bad flag", async () => {
    const outcome = await runCli(["key", "create", "--account", "x", "--scope", "admin"]);
    expect(outcome.exitCode).toBe(1);
    expect(errorOf(outcome)).toContain("--scope");
  });
});
