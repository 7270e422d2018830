import { headers as natsHeaders } from "@nats-io/nats-core";
import { defineContract } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { startTracing } from "@pasarela/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { bind, connectBus, type Bus } from "../src/index.js";

/** Answers how much of the caller's deadline was left when the handler ran. */
const budget = defineContract({
  subject: "test.budget.get",
  request: z.object({}),
  reply: z.object({ leftMs: z.number().nullable() }),
  errors: [],
});
/** Never answers in time; its own wait is longer than this test may run. */
const stuck = defineContract({
  subject: "test.stuck.get",
  request: z.object({}),
  reply: z.object({}),
  errors: [],
  timeoutMs: 120_000,
});

describe("bus: one deadline per API call, carried from hop to hop", () => {
  let infra: FileInfra;
  let server: Bus;
  let client: Bus;
  const { logger } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });
  const release: (() => void)[] = [];

  beforeAll(async () => {
    infra = await fileInfra();
    const options = { url: infra.natsUrl, prefix: infra.prefix, logger, tracer };
    server = await connectBus({ ...options, name: "server" });
    client = await connectBus({ ...options, name: "client" });
    server.serve({ name: "test" }, [
      bind(budget, (_request, ctx) =>
        Promise.resolve(
          ok({ leftMs: ctx.deadline === undefined ? null : ctx.deadline - Date.now() }),
        ),
      ),
      bind(
        stuck,
        () =>
          new Promise((resolve) => {
            release.push(() => resolve(ok({})));
          }),
      ),
    ]);
    await server.connection.flush();
  });

  afterAll(async () => {
    for (const done of release) done();
    await client?.close();
    await server?.close();
    await infra?.cleanup();
  });

  it("hands the handler the caller's deadline, and none when the caller set none", async () => {
    const withDeadline = await client.request(budget, {}, { deadline: Date.now() + 5_000 });
    expect(withDeadline.ok).toBe(true);
    if (!withDeadline.ok) return;
    expect(withDeadline.value.leftMs).toBeGreaterThan(0);
    expect(withDeadline.value.leftMs).toBeLessThanOrEqual(5_000);
    expect(await client.request(budget, {})).toEqual({ ok: true, value: { leftMs: null } });
  });

  it("reads a malformed budget header as no deadline at all", async () => {
    const h = natsHeaders();
    h.set("budget-ms", "-5; drop table");
    const msg = await client.connection.request(`${infra.prefix}.test.budget.get`, "{}", {
      timeout: 5_000,
      headers: h,
    });
    expect(JSON.parse(new TextDecoder().decode(msg.data))).toEqual({
      ok: true,
      value: { leftMs: null },
    });
  });

  it("stops waiting for a reply soon after the deadline, whatever the subject's own wait", async () => {
    // the subject's wait is 120 s, longer than this test may run: only the deadline ends it
    const answer = await client.request(stuck, {}, { deadline: Date.now() + 500 });
    expect(answer.ok || answer.error.code).toBe("SERVICE_UNAVAILABLE");
  });
});
