import { randomUUID } from "node:crypto";
import { connectBus, type Bus } from "@pasarela/bus";
import { billing, type Environment, type EventOf } from "@pasarela/contracts";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, startBilling } from "../src/index.js";

const DAY = 86_400_000;

type Alerta = EventOf<typeof billing.cuotaAlerta>;

/**
 * Quota alerts against real NATS and PostgreSQL, with billing's clock in the test's hands:
 * 80 % and 100 % of a quota announced once per period, whatever is released and taken again,
 * and an announcement that did not get out sent by the sweeper.
 */
describe("billing: quota alerts (evt.billing.cuota.alerta)", () => {
  let infra: FileInfra;
  let client: Bus;
  let stop: () => Promise<void>;
  let sweep: () => Promise<void>;
  let clock = Date.now();
  const { logger } = capturingLogger("billing");
  const heard: Alerta[] = [];

  beforeAll(async () => {
    infra = await fileInfra();
    const config = loadConfig({
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.prefix,
      DATABASE_URL: infra.databaseUrl,
      CURSOR_KEY: "Y3Vyc29yLXRlc3Qta2V5LWN1cnNvci10ZXN0LWtleSE=",
      API_KEY_PEPPER: "test-pepper-test-pepper-test-pepper-0123",
      QUOTA_RESERVATION_TTL_MS: "60000",
    });
    const service = await startBilling(config, logger, { now: () => new Date(clock) });
    stop = service.stop;
    sweep = service.deps.sweep;
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "test",
      logger,
      tracer: startTracing({ service: "test" }).tracer,
    });
    client.listen(billing.cuotaAlerta, (event) => void heard.push(event));
    await client.connection.flush();
  });

  afterAll(async () => {
    await client?.close();
    await stop?.();
    await infra?.cleanup();
  });

  const value = <T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }) => {
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };

  async function account(padrones: number) {
    const { accountId } = value(await client.request(billing.accountCreate, { name: "Cuenta" }));
    const name = `p-${randomUUID().slice(0, 8)}`;
    value(await client.request(billing.planCreate, { name, facturas: 100, padrones }));
    value(await client.request(billing.planAssign, { accountId, plan: name }));
    return accountId;
  }
  const reserve = (accountId: string, ref: string, environment: Environment = "produccion") =>
    client.request(billing.quotaReserve, { resource: "padrones", environment, ref }, { accountId });
  const of = (accountId: string) => heard.filter((a) => a.accountId === accountId);
  /** waits for the account's alerts to reach `count`, then a little more for any extra one */
  async function settled(accountId: string, count: number): Promise<Alerta[]> {
    const deadline = Date.now() + 10_000;
    while (of(accountId).length < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    return of(accountId);
  }

  it("announces 80 % and 100 % once each, and nothing for test calls", async () => {
    const accountId = await account(5);
    for (let i = 0; i < 5; i++)
      value(await reserve(accountId, `h-${randomUUID()}`, "homologacion"));
    for (let i = 0; i < 3; i++) value(await reserve(accountId, `r-${i}-${randomUUID()}`));
    expect(await settled(accountId, 0)).toEqual([]);
    const fourth = `r-3-${randomUUID()}`;
    value(await reserve(accountId, fourth));
    // the same reservation asked again takes nothing and crosses nothing
    value(await reserve(accountId, fourth));
    const [ochenta] = await settled(accountId, 1);
    expect(ochenta).toMatchObject({
      version: 1,
      accountId,
      resource: "padrones",
      used: 4,
      limit: 5,
      umbral: 80,
      occurredAt: new Date(clock).toISOString(),
    });
    expect(Date.parse(ochenta!.period.start)).toBeLessThanOrEqual(clock);
    expect(Date.parse(ochenta!.period.end)).toBeGreaterThan(clock);
    expect(ochenta!.id).toBe(
      billing.cuotaAlertaId(accountId, "padrones", new Date(ochenta!.period.start), 80),
    );

    const last = `r-4-${randomUUID()}`;
    value(await reserve(accountId, last));
    expect((await settled(accountId, 2)).map((a) => [a.umbral, a.used])).toEqual([
      [80, 4],
      [100, 5],
    ]);
    // the quota is used up; a unit released and taken again crosses 100 % again: not announced
    expect((await reserve(accountId, `r-5-${randomUUID()}`)).ok).toBe(false);
    value(await client.request(billing.quotaRelease, { ref: last }, { accountId }));
    value(await reserve(accountId, `r-6-${randomUUID()}`));
    expect((await settled(accountId, 3)).map((a) => a.umbral)).toEqual([80, 100]);
  });

  it("announces again in the next period, with that period's id", async () => {
    const accountId = await account(1);
    // the clock at the account's creation: its first period starts now
    clock = Date.now();
    value(await reserve(accountId, randomUUID()));
    const [first] = await settled(accountId, 2);
    clock += 32 * DAY;
    value(await reserve(accountId, randomUUID()));
    const alerts = await settled(accountId, 4);
    expect(alerts.map((a) => a.umbral)).toEqual([80, 100, 80, 100]);
    expect(alerts[2]!.period.start).toBe(first!.period.end);
    expect(new Set(alerts.map((a) => a.id)).size).toBe(4);
  });

  it("the sweeper announces a crossing whose announcement did not get out", async () => {
    const accountId = await account(1);
    const sql = postgres(infra.databaseUrl, { max: 1 });
    try {
      value(await reserve(accountId, randomUUID()));
      await settled(accountId, 2);
      // as if the process had died between the commit and the publication
      await sql`update billing.cuota_alertas set published_at = null where account_id = ${accountId}`;
      heard.length = 0;
      await sweep();
      expect((await settled(accountId, 2)).map((a) => a.umbral)).toEqual([80, 100]);
      const rows = await sql`
        select count(*)::int as n from billing.cuota_alertas
         where account_id = ${accountId} and published_at is not null`;
      expect(rows[0]!.n).toBe(2);
    } finally {
      await sql.end();
    }
  });
});
