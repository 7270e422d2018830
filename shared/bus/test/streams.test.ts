import { jetstreamManager } from "@nats-io/jetstream";
import { defineJob } from "@pasarela/contracts";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { startTracing } from "@pasarela/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { connectBus, ensureJobStream, type Bus } from "../src/index.js";

const work = defineJob({
  subject: "job.test.streams.work",
  stream: "TEST_STREAMS_WORK",
  schema: z.object({ id: z.string() }),
});
const replicated = defineJob({
  subject: "job.test.streams.replicated",
  stream: "TEST_STREAMS_REPLICATED",
  schema: z.object({ id: z.string() }),
});

describe("JetStream streams", () => {
  let infra: FileInfra;
  let bus: Bus;
  const { logger } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });
  const connect = (streamReplicas?: number) =>
    connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: `streams-${streamReplicas ?? "default"}`,
      logger,
      tracer,
      ...(streamReplicas ? { streamReplicas } : {}),
    });

  beforeAll(async () => {
    infra = await fileInfra();
    bus = await connect();
  });

  afterAll(async () => {
    await bus?.close();
    await infra?.cleanup();
  });

  it("creates the events and a job's stream with one replica by default, and again is a no-op", async () => {
    await bus.ensureEventStream();
    await bus.ensureEventStream();
    await ensureJobStream(bus, work);
    await ensureJobStream(bus, work);
    const jsm = await jetstreamManager(bus.connection);
    const events = await jsm.streams.info(bus.eventStreamName());
    expect(events.config.num_replicas).toBe(1);
    expect(events.config.subjects).toEqual([`${infra.prefix}.evt.>`]);
    const jobs = await jsm.streams.info(`${infra.prefix}_TEST_STREAMS_WORK`);
    expect(jobs.config.num_replicas).toBe(1);
    expect(jobs.config.retention).toBe("workqueue");
  });

  it("brings an existing stream's subjects back to what is wanted", async () => {
    const jsm = await jetstreamManager(bus.connection);
    const name = bus.eventStreamName();
    const info = await jsm.streams.info(name);
    await jsm.streams.update(name, { ...info.config, subjects: [`${infra.prefix}.evt.other.>`] });
    await bus.ensureEventStream();
    expect((await jsm.streams.info(name)).config.subjects).toEqual([`${infra.prefix}.evt.>`]);
  });

  it("refuses, naming the stream and the replicas, where the server cannot hold them", async () => {
    const clustered = await connect(3);
    try {
      // a single server (as here) holds one replica only: starting must fail, not limp on
      await expect(ensureJobStream(clustered, replicated)).rejects.toThrow(
        new RegExp(
          `stream ${infra.prefix}_TEST_STREAMS_REPLICATED \\(3 replica\\(s\\)\\): replicas > 1 not supported`,
        ),
      );
      expect(clustered.streamReplicas).toBe(3);
    } finally {
      await clustered.close();
    }
  });
});
