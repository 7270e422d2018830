import { randomUUID } from "node:crypto";
import {
  connectBus,
  consumeDurable,
  done,
  ensureJobStream,
  type Bus,
  type Durable,
  type DurableOutcome,
} from "@pasarela/bus";
import { defineJob } from "@pasarela/contracts";
import { startMetricsServer, startTracing, type MetricsServer } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { watchConsumerLag } from "../src/consumer-lag.js";

const work = defineJob({
  subject: "job.test.lag.work",
  stream: "TEST_LAG_WORK",
  schema: z.object({ id: z.string() }),
});

describe("JetStream consumer lag as metrics", () => {
  let infra: FileInfra;
  let bus: Bus;
  let metrics: MetricsServer;
  const { logger } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });

  beforeAll(async () => {
    infra = await fileInfra();
    bus = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "lag",
      logger,
      tracer,
    });
    await ensureJobStream(bus, work);
    watchConsumerLag(bus);
    metrics = await startMetricsServer({ process: "lag-test", port: 0, logger });
  });

  afterAll(async () => {
    await metrics?.close();
    await bus?.close();
    await infra?.cleanup();
  });

  /** this stream's samples of a gauge, by consumer */
  async function lag(name: string): Promise<Record<string, number>> {
    const text = await (await fetch(`${metrics.url}/metrics`)).text();
    const stream = `${infra.prefix}_TEST_LAG_WORK`;
    const out: Record<string, number> = {};
    for (const [, labels, value] of text.matchAll(new RegExp(`^${name}\\{(.*)\\} (\\S+)$`, "gm"))) {
      if (!labels!.includes(`stream="${stream}"`)) continue;
      out[/consumer="([^"]*)"/.exec(labels!)![1]!] = Number(value);
    }
    return out;
  }

  it("reports a job queue's backlog while its worker is busy, and nothing once it stops", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const handled: string[] = [];
    const consumer: Durable = await consumeDurable(bus, [work], {
      durable: "lag-worker",
      logger,
      concurrency: 1,
      handle: async ([job]): Promise<DurableOutcome> => {
        await gate;
        handled.push(job!.body.id);
        return done;
      },
    });
    try {
      for (let i = 0; i < 5; i++) await bus.publish(work, { id: randomUUID() });
      // one message held by the busy worker, the others waiting in the queue
      await expect
        .poll(async () => ({
          pending: (await lag("pasarela_jetstream_consumer_pending"))["lag-worker"],
          ack: (await lag("pasarela_jetstream_consumer_ack_pending"))["lag-worker"],
        }))
        .toEqual({ pending: 4, ack: 1 });
      release();
      await expect.poll(() => handled.length).toBe(5);
      await expect
        .poll(async () => (await lag("pasarela_jetstream_consumer_pending"))["lag-worker"])
        .toBe(0);
      expect((await lag("pasarela_jetstream_consumer_ack_pending"))["lag-worker"]).toBe(0);
    } finally {
      release();
      await consumer.stop();
    }
    expect(await lag("pasarela_jetstream_consumer_pending")).toEqual({});
  });
});
