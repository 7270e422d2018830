import { randomUUID } from "node:crypto";
import { jetstreamManager } from "@nats-io/jetstream";
import {
  bind,
  connectBus,
  consumeDurable,
  done,
  ensureJobStream,
  jobStreamName,
  type Bus,
} from "@pasarela/bus";
import { defineJob } from "@pasarela/contracts";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startService, type RunningService } from "../src/index.js";
import { HANDLER_MS, slow } from "./fixtures/slow.js";

const work = defineJob({
  subject: "job.test.drain.work",
  stream: "TEST_DRAIN_WORK",
  schema: z.object({ id: z.string() }),
});

const ACK_WAIT_MS = 3_000;

describe("a stopped service drains: what it took is answered, the rest goes to its peer", () => {
  let infra: FileInfra;
  let client: Bus;
  const running: RunningService<object>[] = [];
  const { logger, lines } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });
  // the jobs each instance began and finished, by instance
  const began: Record<string, string[]> = {};
  const finished: Record<string, string[]> = {};

  /** One instance of the service "drain-test": its replies and its jobs say which it is. */
  async function instance(
    label: string,
    drainMs = 20_000,
    jobMs = HANDLER_MS,
  ): Promise<RunningService<object>> {
    began[label] = [];
    finished[label] = [];
    const service = await startService<never, object>({
      name: "drain-test",
      logger: logger.child({ instance: label }),
      settings: {
        NATS_URL: infra.natsUrl,
        NATS_PREFIX: infra.prefix,
        NATS_REQUEST_TIMEOUT_MS: 10_000,
        SHUTDOWN_DRAIN_MS: drainMs,
        LOG_LEVEL: "info",
      },
      async start({ bus }) {
        const durable = await consumeDurable(bus, [work], {
          durable: "drain-test",
          logger,
          // what an instance abandons at its bound comes back to another after this
          ackWaitMs: ACK_WAIT_MS,
          handle: async (batch) => {
            for (const { body } of batch) began[label]!.push(body.id);
            await new Promise((r) => setTimeout(r, jobMs));
            for (const { body } of batch) finished[label]!.push(body.id);
            return done;
          },
        });
        return {
          bindings: [
            bind(slow, async (request) => {
              await new Promise((r) => setTimeout(r, HANDLER_MS));
              return { ok: true, value: { n: request.n, served: label } };
            }),
          ],
          stop: () => durable.stop(),
        };
      },
    });
    running.push(service);
    return service;
  }

  beforeAll(async () => {
    infra = await fileInfra();
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "client",
      logger,
      tracer,
    });
    await ensureJobStream(client, work);
  });

  afterAll(async () => {
    for (const service of running) await service.stop();
    await client?.close();
    await infra?.cleanup();
  });

  it("answers the request in flight, and its peer every request sent once the stop began", async () => {
    const first = await instance("first");
    // only the first instance runs: this request is its to answer
    const inFlight = client.request(slow, { n: 0 });
    await new Promise((r) => setTimeout(r, 300));
    await instance("second");

    const stopping = first.stop();
    // the subscriptions are drained at once; the requests sent from now on go to the peer
    await new Promise((r) => setTimeout(r, 100));
    const later = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => client.request(slow, { n })));
    const answered = await inFlight;
    await stopping;

    expect(answered).toEqual({ ok: true, value: { n: 0, served: "first" } });
    for (const [i, result] of later.entries()) {
      expect(result).toEqual({ ok: true, value: { n: i + 1, served: "second" } });
    }
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const stopped = logged.find((l) => l.msg === "drain-test stopped" && l.instance === "first");
    expect(stopped?.drained).toBe(true);
    // nothing was answered with an error, nor logged as one
    expect(logged.filter((l) => l.level === "error" || l.level === "fatal")).toEqual([]);
  });

  it("finishes and acknowledges the job it was handling, and fetches no more", async () => {
    const third = await instance("third");
    const [second] = running.filter((s) => s !== third && !s.bus.connection.isClosed());
    expect(second).toBeDefined();
    // the second instance stops at once, leaving the consumer to the third
    await second!.stop();

    const id = randomUUID();
    await client.publish(work, { id });
    await waitFor(() => began.third!.includes(id), 5_000);
    const fourth = await instance("fourth");
    const stopping = third.stop();
    await new Promise((r) => setTimeout(r, 100));
    const after = randomUUID();
    await client.publish(work, { id: after });
    await stopping;

    // the job in flight finished on the instance stopping; the next one on the peer
    expect(finished.third).toEqual([id]);
    expect(began.third).toEqual([id]);
    await waitFor(() => finished.fourth!.includes(after), 10_000);
    expect(finished.fourth).toEqual([after]);
    const jsm = await jetstreamManager(client.connection);
    await waitFor(
      async () => (await jsm.streams.info(jobStreamName(client, work))).state.messages === 0,
      5_000,
    );
    await fourth.stop();
  });

  it("at its bound abandons the job still running, unacknowledged: the peer gets it again", async () => {
    // a job far longer than the bound
    const fifth = await instance("fifth", 300, 4_000);
    const id = randomUUID();
    await client.publish(work, { id });
    await waitFor(() => began.fifth!.includes(id), 5_000);
    await instance("sixth");

    const startedAt = Date.now();
    await fifth.stop();
    // the stop kept to its bound (and a second for the service's own stop) rather than to the
    // handler, which had not finished
    expect(Date.now() - startedAt).toBeLessThan(2_500);
    expect(finished.fifth).toEqual([]);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      logged.some((l) => l.instance === "fifth" && l.msg === "drain-test stopped" && !l.drained),
    ).toBe(true);

    // never acknowledged, it is redelivered once its ack wait is over, and handled there
    await waitFor(() => finished.sixth!.includes(id), ACK_WAIT_MS + 2 * HANDLER_MS + 2_000);
    const jsm = await jetstreamManager(client.connection);
    await waitFor(
      async () => (await jsm.streams.info(jobStreamName(client, work))).state.messages === 0,
      5_000,
    );
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}
