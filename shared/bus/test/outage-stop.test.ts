import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPrivateNats, type Running } from "@pasarela/servers";
import { capturingLogger } from "@pasarela/testing";
import { startTracing } from "@pasarela/telemetry";
import { afterAll, describe, expect, it } from "vitest";
import { connectBus } from "../src/index.js";

describe("a bus stopped while the NATS server is down", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "pasarela-bus-outage-stop-"));
  let nats: Running;
  const { logger } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });

  afterAll(async () => {
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("drains and closes without waiting for the server (a SIGTERM then exits cleanly)", async () => {
    nats = await startPrivateNats(join(dataDir, "nats"));
    const bus = await connectBus({ url: nats.url, logger, tracer, name: "server" });
    bus.serve({ name: "test" }, []);
    await bus.connection.flush();
    await nats.stop();
    await new Promise((r) => setTimeout(r, 300));

    const startedAt = Date.now();
    expect(await bus.drain(5_000)).toBe(true);
    await bus.close();
    expect(bus.connection.isClosed()).toBe(true);
    expect(Date.now() - startedAt).toBeLessThan(3_000);
  });
});
