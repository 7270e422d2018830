import { readFileSync } from "node:fs";
import { join } from "node:path";
import { catalogue } from "@pasarela/errors";
import { describe, expect, it } from "vitest";
import {
  configurationMarkdown,
  errorsMarkdown,
  generatedDocs,
  repoRoot,
} from "../docs/generate.js";

// docs/configuration.md and docs/errors.md are generated (npm run docs): they must say what the
// code says now, so a new variable, a changed default or a reworded message fails here until
// the docs are regenerated.
describe("generated docs", () => {
  it("docs/configuration.md and docs/errors.md are what `npm run docs` writes now", async () => {
    for (const [path, expected] of Object.entries(await generatedDocs())) {
      const committed = readFileSync(join(repoRoot, path), "utf8");
      expect(committed, `${path} is stale: run npm run docs`).toBe(expected);
    }
  });

  it("the configuration lists each variable with its services, default and rule", async () => {
    const text = await configurationMarkdown();
    const row = (name: string) =>
      text
        .split("\n")
        .find((line) => line.startsWith(`| \`${name}\``))
        ?.split("|")
        .map((cell) => cell.trim());
    expect(row("SERIES_LEASE_MS")?.slice(2, 5)).toEqual(["wsfe", "`5000`", "an integer ≥ 1000"]);
    expect(row("NATS_URL")?.[2]).toBe("all");
    expect(row("API_KEY_PEPPER")?.slice(2, 4)).toEqual(["billing", "required"]);
    expect(row("KEY_ENCRYPTION_KEY")?.[2]).toBe("ticket, wsfe, cobros, webhooks");
    expect(row("LOG_LEVEL")?.[4]).toContain("`silent`");
  });

  it("the errors list every catalogue code once, with the edge's status and the exact message", async () => {
    const text = await errorsMarkdown();
    for (const [code, entry] of Object.entries(catalogue)) {
      const lines = text
        .split("\n")
        .filter((line) => new RegExp(`^\\| \\d+ +\\| \`${code}\` +\\|`).test(line));
      expect(lines, code).toHaveLength(1);
      expect(lines[0]).toContain(entry.message.replaceAll("|", "\\|"));
    }
    expect(text).toMatch(/^\| 402 +\| `QUOTA_FACTURAS_EXHAUSTED`/m);
  });
});
