import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bind, connectBus, type Bus } from "@pasarela/bus";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService, type RunningService } from "../src/index.js";
import { HANDLER_MS, slow } from "./fixtures/slow.js";

// the compiled fixture (npx tsc -b), run by node as a service's main.js is
const fixture = fileURLToPath(new URL("../dist/test/fixtures/slow-service.js", import.meta.url));

/** A service process answering `slow`; resolves once it says it started. */
async function serviceProcess(infra: FileInfra, instance: string): Promise<ChildProcess> {
  if (!existsSync(fixture)) throw new Error(`${fixture} is not built (run: npx tsc -b)`);
  const child = spawn(process.execPath, [fixture], {
    env: {
      ...process.env,
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.prefix,
      INSTANCE: instance,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("drain-test started")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`exited ${String(code)} before starting`)));
  });
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });

describe("a service process on SIGTERM", () => {
  let infra: FileInfra;
  let client: Bus;
  let peer: RunningService<object> | undefined;
  const { logger } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });

  beforeAll(async () => {
    infra = await fileInfra();
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "client",
      logger,
      tracer,
    });
  });

  afterAll(async () => {
    await peer?.stop();
    await client?.close();
    await infra?.cleanup();
  });

  it("answers the request in flight, leaves the next ones to its peer and exits 0", async () => {
    const child = await serviceProcess(infra, "process");
    const inFlight = client.request(slow, { n: 0 });
    await new Promise((r) => setTimeout(r, 300));
    peer = await startService<never, object>({
      name: "drain-test",
      logger,
      settings: {
        NATS_URL: infra.natsUrl,
        NATS_PREFIX: infra.prefix,
        NATS_REQUEST_TIMEOUT_MS: 10_000,
        LOG_LEVEL: "info",
      },
      start: () =>
        Promise.resolve({
          bindings: [
            bind(slow, (request) =>
              Promise.resolve({ ok: true, value: { ...request, served: "peer" } }),
            ),
          ],
        }),
    });

    const exit = exited(child);
    child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 100));
    const later = await Promise.all([1, 2, 3, 4].map((n) => client.request(slow, { n })));

    expect(await inFlight).toEqual({ ok: true, value: { n: 0, served: "process" } });
    expect(later).toEqual([1, 2, 3, 4].map((n) => ({ ok: true, value: { n, served: "peer" } })));
    expect(await exit).toBe(0);
  });

  it("exits at once, 1, on a second signal while it drains", async () => {
    const child = await serviceProcess(infra, "impatient");
    // without the peer of the test above, this request is the process's own
    await peer?.stop();
    peer = undefined;
    const inFlight = client.request(slow, { n: 9 }, { timeoutMs: 3_000 });
    await new Promise((r) => setTimeout(r, 300));
    const exit = exited(child);
    const signalledAt = Date.now();
    child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 100));
    child.kill("SIGTERM");
    expect(await exit).toBe(1);
    expect(Date.now() - signalledAt).toBeLessThan(HANDLER_MS - 300);
    // abandoned: its caller gets no answer, neither a made-up one nor a late one
    expect(await inFlight).toMatchObject({ ok: false, error: { code: "SERVICE_UNAVAILABLE" } });
  });
});
