import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli-commands.js";
import { runCli, UsageError } from "../../src/cli.js";
import type { ControlClient } from "../../src/control/client.js";

/** Usage never reaches the simulator: any call is a failure of the test. */
const unreachable = new Proxy({} as ControlClient, {
  get: (_target, name) => () => {
    throw new Error(`the control API was called (${String(name)})`);
  },
});

describe("sim CLI usage", () => {
  it.each([["--help"], ["-h"], ["help"]])("answers %s with every command", async (ask) => {
    const help = await runCli([ask], unreachable);
    expect(help).toMatch(/^usage: npm run sim -- <command>/);
    for (const c of commands) expect(help).toContain(`  ${c.name} `);
  });

  it("answers each command's --help, -h and help <command> with its flags, as the parser takes them", async () => {
    for (const command of commands) {
      const help = await runCli([command.name, "--help"], unreachable);
      expect(help.startsWith(`usage: npm run sim -- ${command.name}`), help).toBe(true);
      expect(await runCli([command.name, "-h"], unreachable)).toBe(help);
      expect(await runCli(["help", command.name], unreachable)).toBe(help);
      for (const alias of command.aliases ?? []) {
        expect(await runCli([alias, "--help"], unreachable)).toBe(help);
      }
      for (const [flag, definition] of Object.entries(command.flags)) {
        const required = !definition.schema.safeParse(undefined).success;
        expect(help, `${command.name} --${flag}`).toContain(`  --${flag} `);
        expect(help, `${command.name} --${flag}`).toContain(
          `${required ? "required" : "optional"}`,
        );
        expect(help, `${command.name} --${flag}`).toContain(definition.help);
      }
      // what the help calls required is what the parser asks for first
      const firstRequired = Object.entries(command.flags).find(
        ([, definition]) => !definition.schema.safeParse(undefined).success,
      );
      if (firstRequired) {
        await expect(runCli([command.name], unreachable)).rejects.toThrow(
          `missing --${firstRequired[0]}`,
        );
      }
    }
  });

  it("asks for help even where a flag's value would go, or after other flags", async () => {
    const help = await runCli(["fault", "--help"], unreachable);
    expect(await runCli(["fault", "--environment", "--help"], unreachable)).toBe(help);
    expect(await runCli(["fault", "--environment", "homologacion", "-h"], unreachable)).toBe(help);
  });

  it("names an unknown command or flag and points at --help", async () => {
    await expect(runCli(["bogus"], unreachable)).rejects.toThrow(
      new UsageError("unknown command bogus; see npm run sim -- --help"),
    );
    await expect(runCli(["help", "bogus"], unreachable)).rejects.toThrow(/unknown command bogus/);
    await expect(
      runCli(["fault", "--environment", "homologacion", "--sevice", "wsfe"], unreachable),
    ).rejects.toThrow("unknown flag --sevice for fault; see npm run sim -- fault --help");
  });
});
