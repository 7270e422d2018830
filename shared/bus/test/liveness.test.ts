import { connect } from "@nats-io/transport-node";
import { defineContract } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { startTracing } from "@pasarela/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { bind, connectBus, type Bus } from "../src/index.js";

/** Waits `ms` before answering: longer than the silence allowed, shorter than the deadline. */
const slow = defineContract({
  subject: "test.slow.get",
  request: z.object({ ms: z.number() }),
  reply: z.object({ waited: z.number(), by: z.string() }),
  errors: [],
  timeoutMs: 60_000,
  onSilence: "repeat",
});
/** The same work, but it must not be done twice (an issuance, say). */
const once = defineContract({
  subject: "test.once.create",
  request: z.object({ ms: z.number() }),
  reply: z.object({ waited: z.number(), by: z.string() }),
  errors: [],
  timeoutMs: 60_000,
  onSilence: "unknown",
});
/** Keeps its process busy (no await) for `ms`; nothing said about a silent responder. */
const busy = defineContract({
  subject: "test.busy.create",
  request: z.object({ ms: z.number() }),
  reply: z.object({ busy: z.number() }),
  errors: [],
  timeoutMs: 60_000,
});

const LIVENESS = { progressIntervalMs: 100, silenceTimeoutMs: 400 };

describe("bus: a responder that dies mid-request is noticed at once, not at the deadline", () => {
  let infra: FileInfra;
  let client: Bus;
  const servers: Bus[] = [];
  const { logger } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });

  async function server(name: string): Promise<Bus> {
    const bus = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name,
      logger,
      tracer,
      liveness: LIVENESS,
    });
    const work = async ({ ms }: { ms: number }) => {
      await new Promise((r) => setTimeout(r, ms));
      return ok({ waited: ms, by: name });
    };
    const compute = ({ ms }: { ms: number }) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        // a computation that never yields: no timer of this process fires meanwhile
      }
      return Promise.resolve(ok({ busy: ms }));
    };
    bus.serve({ name: "test" }, [bind(slow, work), bind(once, work), bind(busy, compute)]);
    await bus.connection.flush();
    servers.push(bus);
    return bus;
  }

  /**
   * A process of the queue group that takes the next request and dies with it: its
   * connection to the server goes, as a killed process's does. `taken` settles once it took one.
   */
  async function doomed(subject: string): Promise<{ taken: Promise<void> }> {
    const nc = await connect({ servers: infra.natsUrl });
    let took!: () => void;
    const taken = new Promise<void>((resolve) => (took = resolve));
    nc.subscribe(`${infra.prefix}.${subject}`, {
      queue: "test",
      callback: () => {
        void nc.close().then(took);
      },
    });
    await nc.flush();
    return { taken };
  }

  beforeAll(async () => {
    infra = await fileInfra();
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "client",
      logger,
      tracer,
      liveness: LIVENESS,
    });
  });

  afterAll(async () => {
    await client?.close();
    for (const bus of servers) await bus.close();
    await infra?.cleanup();
  });

  it("a handler working longer than the silence allowed still answers: it says it is alive", async () => {
    await server("steady");
    const answer = await client.request(slow, { ms: 1_500 });
    expect(answer).toEqual({ ok: true, value: { waited: 1_500, by: "steady" } });
    for (const bus of servers.splice(0)) await bus.close();
  });

  it("a handler that keeps its process busy is not taken for dead where the contract says nothing", async () => {
    await server("computing");
    expect(await client.request(busy, { ms: 1_200 })).toEqual({ ok: true, value: { busy: 1_200 } });
    for (const bus of servers.splice(0)) await bus.close();
  });

  it("a query whose responder died is asked again of another instance, within the deadline", async () => {
    const { taken } = await doomed(slow.subject);
    const started = Date.now();
    const answer = client.request(slow, { ms: 50 });
    await taken;
    // the only instance left comes up after the request was lost with the first one
    await server("survivor");
    expect(await answer).toEqual({ ok: true, value: { waited: 50, by: "survivor" } });
    // the silence allowed and one answer, far from the 60 s the subject may wait
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const bus of servers.splice(0)) await bus.close();
  });

  it("a request not safe to repeat answers SERVICE_UNAVAILABLE of unknown outcome, never twice", async () => {
    const { taken } = await doomed(once.subject);
    const started = Date.now();
    const answer = client.request(once, { ms: 50 });
    await taken;
    await server("bystander");
    const result = await answer;
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "SERVICE_UNAVAILABLE",
        details: { reason: "responder went silent", outcome: "unknown" },
      },
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    for (const bus of servers.splice(0)) await bus.close();
  });

  it("a query whose every responder died answers SERVICE_UNAVAILABLE soon", async () => {
    const { taken } = await doomed(slow.subject);
    const started = Date.now();
    const answer = client.request(slow, { ms: 50 });
    await taken;
    const result = await answer;
    expect(result.ok || result.error.code).toBe("SERVICE_UNAVAILABLE");
    // nobody left to ask again: no responders, at once
    if (!result.ok) expect(result.error.details?.reason).toBe("no responders");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
