import { describe, expect, it } from "vitest";
import { parseFlags, runCli } from "../src/index.js";

describe("admin CLI", () => {
  it("parses --flag value pairs", () => {
    expect(parseFlags(["--account", "a1", "--pto-vta", "3"])).toEqual({
      account: "a1",
      "pto-vta": "3",
    });
    expect(parseFlags(["--account"])).toBe("falta el valor de --account");
  });

  it("answers a JSON error naming the usage for an unknown command", async () => {
    const outcome = await runCli(["nope"]);
    expect(outcome.exitCode).toBe(1);
    const body = JSON.parse(outcome.stderr ?? "{}") as { error: string };
    expect(body.error).toContain("account create --name <name>");
  });

  it("names the bad flag", async () => {
    const outcome = await runCli(["key", "create", "--account", "x", "--scope", "admin"]);
    expect(outcome.exitCode).toBe(1);
    expect((JSON.parse(outcome.stderr ?? "{}") as { error: string }).error).toContain("--scope");
  });
});
