import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineContract } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import { startPrivateNats, type Running } from "@pasarela/servers";
import { capturingLogger } from "@pasarela/testing";
import { startTracing } from "@pasarela/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { bind, connectBus, type Bus } from "../src/index.js";

const slow = defineContract({
  subject: "test.slow.get",
  request: z.object({ ms: z.number() }).strict(),
  reply: z.object({ waited: z.number() }),
  errors: [],
});

// Far above how long a lost request may take to fail, so a request that waits for its
// timeout cannot pass for a failed-fast one.
const LONG_TIMEOUT_MS = 60_000;

describe("bus requests while the NATS server is down", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "pasarela-bus-outage-"));
  let nats: Running;
  let port: number;
  let server: Bus;
  let client: Bus;
  const { logger } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });

  beforeAll(async () => {
    nats = await startPrivateNats(join(dataDir, "nats"));
    port = Number(new URL(nats.url.replace(/^nats:/, "http:")).port);
    const options = { url: nats.url, logger, tracer, defaultTimeoutMs: LONG_TIMEOUT_MS };
    server = await connectBus({ ...options, name: "server" });
    client = await connectBus({ ...options, name: "client" });
    server.serve({ name: "test" }, [
      bind(slow, async (request) => {
        await new Promise((r) => setTimeout(r, request.ms));
        return ok({ waited: request.ms });
      }),
    ]);
    await server.connection.flush();
  });

  afterAll(async () => {
    await client?.connection.close();
    await server?.connection.close();
    await nats?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("fails in-flight and new requests at once, and answers again once the server is back", async () => {
    expect(await client.request(slow, { ms: 1 })).toEqual({ ok: true, value: { waited: 1 } });

    const started = Date.now();
    const inFlight = Array.from({ length: 5 }, () =>
      client.request(slow, { ms: 3_000 }).then((result) => ({ result, ms: Date.now() - started })),
    );
    await new Promise((r) => setTimeout(r, 300));
    process.kill(nats.pid!, "SIGKILL");

    for (const { result, ms } of await Promise.all(inFlight)) {
      expect(result).toMatchObject({
        ok: false,
        error: { code: "SERVICE_UNAVAILABLE", details: { reason: "nats connection lost" } },
      });
      expect(ms).toBeLessThan(LONG_TIMEOUT_MS / 4);
    }
    expect(client.isConnected()).toBe(false);

    const whileDown = Date.now();
    const refused = await client.request(slow, { ms: 1 });
    expect(refused).toMatchObject({
      ok: false,
      error: { code: "SERVICE_UNAVAILABLE", details: { reason: "nats disconnected" } },
    });
    expect(Date.now() - whileDown).toBeLessThan(LONG_TIMEOUT_MS / 4);

    nats = await startPrivateNats(join(dataDir, "nats"), { port });
    await expect
      .poll(async () => (await client.request(slow, { ms: 1 }, { timeoutMs: 2_000 })).ok, {
        timeout: 30_000,
        interval: 250,
      })
      .toBe(true);
    expect(client.isConnected()).toBe(true);
  });
});
