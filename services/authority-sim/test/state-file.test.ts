import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.js";
import { makeControlClient } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "authority-sim-state-"));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const modeOf = (file: string): number => statSync(file).mode & 0o777;

describe("SIM_STATE_FILE", () => {
  it("is written owner-only (0600): it holds the CAs' private keys", async () => {
    const file = join(dir, "fresh.json");
    const sim = await startSimulator({ port: 0, stateFile: file });
    try {
      expect(readFileSync(file, "utf8")).toContain("PRIVATE KEY");
      expect(modeOf(file)).toBe(0o600);
      await makeControlClient(sim.url).setCotizacion("homologacion", { monId: "DOL", cotiz: 9 });
      expect(modeOf(file)).toBe(0o600);
    } finally {
      await sim.close();
    }
  });

  it("narrows a state file left readable by an earlier version to 0600, keeping its content", async () => {
    const file = join(dir, "legacy.json");
    const first = await startSimulator({ port: 0, stateFile: file });
    const ca = await makeControlClient(first.url).caCertificate("produccion");
    await first.close();
    chmodSync(file, 0o644);
    // a temp file left by a crashed writer with the same pid must not keep its mode either
    writeFileSync(`${file}.${process.pid}.tmp`, "{}", { mode: 0o644 });
    chmodSync(`${file}.${process.pid}.tmp`, 0o644);

    const second = await startSimulator({ port: 0, stateFile: file });
    try {
      expect(modeOf(file)).toBe(0o600);
      expect(await makeControlClient(second.url).caCertificate("produccion")).toBe(ca);
    } finally {
      await second.close();
    }
  });
});
