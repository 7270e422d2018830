import { randomUUID } from "node:crypto";
import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { defineJob } from "@pasarela/contracts";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  connectBus,
  consumeDurable,
  done,
  ensureJobStream,
  jobStreamName,
  type Bus,
  type Durable,
} from "../src/index.js";

const work = defineJob({
  subject: "job.test.durable.work",
  stream: "TEST_DURABLE_WORK",
  schema: z.object({ id: z.string() }),
});

/** far longer than any wait below: a message handled is one handled while its fetch is open */
const FETCH_WAIT_MS = 60_000;

const consumerInfo = (jsm: JetStreamManager, stream: string) =>
  jsm.consumers.info(stream, "durable-test");

describe("a durable consumer hands messages over as they come", () => {
  let infra: FileInfra;
  let bus: Bus;
  let durable: Durable | undefined;
  const { logger } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });

  beforeAll(async () => {
    infra = await fileInfra();
    bus = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "durable-test",
      logger,
      tracer,
    });
    await ensureJobStream(bus, work);
  });

  afterAll(async () => {
    await durable?.stop();
    await bus?.close();
    await infra?.cleanup();
  });

  /**
   * One instance of the consumer: it records the ids of each batch in `batches`, then settles
   * the batch once `settle` resolves.
   */
  const instance = (batches: string[][], settle: () => Promise<void> = () => Promise.resolve()) =>
    consumeDurable(bus, [work], {
      durable: "durable-test",
      logger,
      maxBatch: 50,
      fetchWaitMs: FETCH_WAIT_MS,
      handle: async (batch) => {
        batches.push(batch.map(({ body }) => body.id));
        await settle();
        return done;
      },
    });

  it("handles a message at once, and those that come during a batch as the next one, each once", async () => {
    const batches: string[][] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // the first batch is held until the test has published the others
    durable = await instance(batches, () => (batches.length === 1 ? held : Promise.resolve()));

    const first = randomUUID();
    await bus.publish(work, { id: first });
    // within the fetch's wait, which has a minute to run (expect.poll gives up after 10 s)
    await expect.poll(() => batches.length).toBe(1);
    expect(batches).toEqual([[first]]);

    const later = [1, 2, 3, 4, 5].map(() => randomUUID());
    for (const id of later) await bus.publish(work, { id });
    const jsm = await jetstreamManager(bus.connection);
    const stream = jobStreamName(bus, work);
    // all five delivered to the consumer, waiting behind the batch being handled
    await expect.poll(async () => (await consumerInfo(jsm, stream)).num_ack_pending).toBe(6);
    release();
    await expect.poll(() => batches.flat().length).toBe(6);
    expect(batches.flat()).toEqual([first, ...later]);
    // the five made one batch, or a few when the machine read them in more than one go
    expect(batches.length).toBeLessThanOrEqual(3);
    // every one acknowledged: the work queue is empty
    await expect.poll(async () => (await jsm.streams.info(stream)).state.messages).toBe(0);
    expect(batches.flat()).toHaveLength(6);
  });

  it("gives back at once, on its stop, a message fetched and not yet handled", async () => {
    await durable?.stop();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const handled: string[][] = [];
    const stopping = await instance(handled, () => held);
    const [a, b] = [randomUUID(), randomUUID()];
    await bus.publish(work, { id: a });
    await expect.poll(() => handled.length).toBe(1);
    await bus.publish(work, { id: b });
    const jsm = await jetstreamManager(bus.connection);
    const stream = jobStreamName(bus, work);
    await expect.poll(async () => (await consumerInfo(jsm, stream)).num_ack_pending).toBe(2);
    // sent to this instance: a moment for it to read it
    await new Promise((r) => setTimeout(r, 200));
    const stopped = stopping.stop();
    release();
    await stopped;
    // the batch being handled was settled; the other message was not handed to this instance
    expect(handled).toEqual([[a]]);

    // another instance gets it without waiting for an acknowledgement's time to run out (30 s)
    const taken: string[][] = [];
    durable = await instance(taken);
    await expect.poll(() => taken.flat()).toContain(b);
    expect(taken.flat()).toEqual([b]);
  });
});
