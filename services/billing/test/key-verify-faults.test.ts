import { connectBus, type Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig, startBilling } from "../src/index.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A key verification whose database connection is killed is the gateway's own outage (503),
 * never "unknown key": the edge would answer 401 to a caller whose key is good.
 */
describe("billing: key verification while the database drops connections", () => {
  let infra: FileInfra;
  let client: Bus;
  let stop: () => Promise<void>;
  const { logger } = capturingLogger("billing");

  beforeAll(async () => {
    infra = await fileInfra();
    const config = loadConfig({
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.prefix,
      DATABASE_URL: infra.databaseUrl,
      CURSOR_KEY: "Y3Vyc29yLXRlc3Qta2V5LWN1cnNvci10ZXN0LWtleSE=",
      DATABASE_POOL_SIZE: "4",
      API_KEY_PEPPER: "test-pepper-test-pepper-test-pepper-0123",
    });
    const service = await startBilling(config, logger);
    stop = service.stop;
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "test",
      logger,
      tracer: startTracing({ service: "test" }).tracer,
    });
  });

  afterAll(async () => {
    await client?.close();
    await stop?.();
    await infra?.cleanup();
  });

  it("answers the principal or SERVICE_UNAVAILABLE, never UNAUTHORIZED, for a good key", async () => {
    const account = await client.request(billing.accountCreate, { name: "Cuenta" });
    if (!account.ok) throw new Error(account.error.message);
    const key = await client.request(billing.keyCreate, {
      accountId: account.value.accountId,
      scope: "read_write",
    });
    if (!key.ok) throw new Error(key.error.message);
    const database = new URL(infra.databaseUrl).pathname.slice(1);
    const admin = postgres(inject("databaseServerUrl"), { max: 1, onnotice: () => {} });
    const outcomes: Record<string, number> = {};
    let running = true;
    const callers = Array.from({ length: 16 }, async () => {
      while (running) {
        const verified = await client.request(billing.keyVerify, { secret: key.value.secret });
        const outcome = verified.ok ? "ok" : verified.error.code;
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
    });
    try {
      const until = Date.now() + Number(process.env.KEY_FAULTS_MS ?? 5_000);
      while (Date.now() < until) {
        await admin`
          select pg_terminate_backend(pid) from pg_stat_activity
          where datname = ${database} and pid <> pg_backend_pid()`;
        await sleep(Number(process.env.KEY_FAULTS_GAP_MS ?? 100) + Math.random() * 40);
      }
    } finally {
      running = false;
      await Promise.all(callers);
      await admin.end({ timeout: 2 });
    }
    expect(Object.keys(outcomes).sort()).toEqual(
      Object.keys(outcomes)
        .filter((o) => o === "ok" || o === "SERVICE_UNAVAILABLE")
        .sort(),
    );
    expect(outcomes.ok).toBeGreaterThan(0);
  }, 60_000);
});
