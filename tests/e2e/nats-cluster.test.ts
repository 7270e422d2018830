import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { loadConfig as loadBillingConfig, startBilling } from "@pasarela/billing";
import { connectBus, type Bus } from "@pasarela/bus";
import { billing, type NatsIdentity } from "@pasarela/contracts";
import { localNats, localStackOptions, type LocalNats, type NatsNode } from "@pasarela/stack";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/cli.js";

interface Jsz {
  meta_cluster?: { name?: string; leader?: string; cluster_size?: number };
}
interface Routez {
  num_routes: number;
}

// `npm start -- --cluster`'s NATS: three nats-servers routed into one JetStream cluster, with
// the same users and grants as the single private server; a service on it with
// NATS_STREAM_REPLICAS=3 and the three servers in NATS_URL.
describe("e2e: the local stack's 3-node NATS JetStream cluster", () => {
  let dataDir: string;
  let nats: LocalNats;
  let nodes: NatsNode[];
  let infra: FileInfra;
  let service: { stop: () => Promise<void>; bus: Bus } | undefined;
  let admin: Bus;
  let asBilling: Bus;
  let jsm: JetStreamManager;
  const { logger } = capturingLogger("test");
  const { tracer } = startTracing({ service: "test" });
  const password = (identity: NatsIdentity) => nats.passwords![identity];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "pasarela-cluster-"));
    nats = await localNats({ root: repoRoot, dataDir, env: {}, say: () => {} }, undefined, {
      cluster: true,
    });
    nodes = nats.nodes!;
    infra = await fileInfra();
    // what the launcher gives every service in cluster mode
    const options = localStackOptions({
      root: repoRoot,
      dataDir,
      env: {},
      say: () => {},
      natsUrl: nats.url,
      databaseUrl: infra.databaseUrl,
      natsPasswords: nats.passwords,
      cluster: true,
    });
    const running = await startBilling(
      loadBillingConfig({
        NATS_URL: nats.url,
        NATS_STREAM_REPLICAS: options.env!.NATS_STREAM_REPLICAS,
        NATS_USER: "billing",
        NATS_PASSWORD: password("billing"),
        DATABASE_URL: infra.databaseUrl,
        API_KEY_PEPPER: randomBytes(32).toString("base64"),
        CURSOR_KEY: randomBytes(32).toString("base64"),
        LOG_LEVEL: "warn",
      }),
      logger,
    );
    service = running;
    admin = await connectBus({
      url: nats.url,
      name: "admin",
      credentials: { user: "admin", password: password("admin") },
      logger,
      tracer,
    });
    // billing's own identity may read the stream it created
    asBilling = await connectBus({
      url: nats.url,
      name: "billing-reader",
      credentials: { user: "billing", password: password("billing") },
      logger,
      tracer,
    });
    jsm = await jetstreamManager(asBilling.connection);
  });

  afterAll(async () => {
    await service?.stop();
    await admin?.close();
    await asBilling?.close();
    await nats?.stop();
    await infra?.cleanup();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("gives the services the three servers, 3 stream replicas and 2 processes each", () => {
    expect(nats.url.split(",")).toEqual(nodes.map((node) => node.url));
    expect(nodes).toHaveLength(3);
    const options = localStackOptions({
      root: repoRoot,
      dataDir,
      env: {},
      say: () => {},
      natsUrl: nats.url,
      databaseUrl: infra.databaseUrl,
      cluster: true,
    });
    expect(options.natsUrl).toBe(nats.url);
    expect(options.env?.NATS_STREAM_REPLICAS).toBe("3");
    expect(options.replicas).toMatchObject({ billing: 2, wsfe: 2, edge: 2, webhooks: 2 });
  });

  it("forms one JetStream cluster: every server routed to the two others, one metadata leader", async () => {
    const leaders = new Set<string>();
    for (const node of nodes) {
      const jsz = (await (await fetch(`${node.monitorUrl}/jsz`)).json()) as Jsz;
      expect(jsz.meta_cluster).toMatchObject({ name: "pasarela-local", cluster_size: 3 });
      leaders.add(jsz.meta_cluster!.leader!);
      const routez = (await (await fetch(`${node.monitorUrl}/routez`)).json()) as Routez;
      expect(routez.num_routes).toBe(2);
    }
    expect(leaders.size).toBe(1);
    expect(nodes.map((node) => node.name)).toContain([...leaders][0]);
  });

  it("keeps the stream the service created, and its durable consumers, on 3 replicas with a leader", async () => {
    const info = await jsm.streams.info("EVENTS");
    expect(info.config.num_replicas).toBe(3);
    expect(nodes.map((node) => node.name)).toContain(info.cluster?.leader);
    expect(info.cluster?.replicas?.map((replica) => replica.name).sort()).toEqual(
      nodes
        .map((node) => node.name)
        .filter((name) => name !== info.cluster?.leader)
        .sort(),
    );
    // a durable consumer takes its stream's replicas
    const consumer = await jsm.consumers.info("EVENTS", "billing-comprobantes");
    expect(nodes.map((node) => node.name)).toContain(consumer.cluster?.leader);
    expect(consumer.cluster?.replicas).toHaveLength(2);
  });

  it("answers requests while the server the service is connected to is SIGKILLed", async () => {
    const listPlans = () => admin.request(billing.planList, {});
    expect((await listPlans()).ok).toBe(true);
    const serverOf = (bus: Bus) => bus.connection.info?.server_name;
    const before = serverOf(service!.bus);
    const victim = nodes.find((node) => node.name === before)!;
    expect(victim).toBeDefined();

    await victim.kill("SIGKILL");
    // the service and the caller reconnect to one of the two left (within seconds)
    const deadline = Date.now() + 15_000;
    while (!(await listPlans()).ok) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
    const after = serverOf(service!.bus);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    // and from then on every request is answered
    const results = await Promise.all(Array.from({ length: 20 }, listPlans));
    expect(results.filter((result) => !result.ok)).toEqual([]);
    // the stream elects a leader among the two servers left (its leader may have been the one
    // killed) and keeps its 3 replicas
    const leaderLeft = async () => {
      const info = await jsm.streams.info("EVENTS").catch(() => undefined);
      return info?.config.num_replicas === 3 ? info.cluster?.leader : undefined;
    };
    await expect.poll(leaderLeft, { timeout: 20_000, interval: 250 }).toBeDefined();
    expect(await leaderLeft()).not.toBe(before);

    // the server comes back on its ports and rejoins: its replica catches up
    await victim.restart();
    await expect
      .poll(
        async () => {
          const info = await jsm.streams.info("EVENTS").catch(() => undefined);
          const replicas = info?.cluster?.replicas ?? [];
          return replicas.length === 2 && replicas.every((replica) => replica.current);
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBe(true);
  });
});
