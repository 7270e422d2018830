import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connectBus, type Bus } from "@pasarela/bus";
import { webhooks } from "@pasarela/contracts";
import { openDatabase, type Database } from "@pasarela/db";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhooksDatabase } from "../src/db/database.js";
import { PRUEBA_MENSAJE } from "../src/domain/prueba.js";
import { loadConfig, schema, startWebhooks } from "../src/index.js";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const until = async <T>(what: string, probe: () => T | undefined | Promise<T | undefined>) => {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("webhook test events (webhooks.prueba.enviar)", () => {
  let infra: FileInfra;
  let client: Bus;
  let stop: () => Promise<void>;
  let database: Database<WebhooksDatabase>;
  let server: Server;
  let base: string;
  const received: Received[] = [];
  // by path, the statuses to answer in order; then 204
  const script = new Map<string, number[]>([["/flaky", [503]]]);
  const { logger, lines } = capturingLogger("webhooks");

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const path = req.url ?? "";
        received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(script.get(path)?.shift() ?? 204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    infra = await fileInfra();
    const config = loadConfig({
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.prefix,
      DATABASE_URL: infra.databaseUrl,
      KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      WEBHOOKS_ALLOW_PRIVATE: "true",
      WEBHOOKS_RETRY_SCALE: "0.001",
    });
    stop = (await startWebhooks(config, logger)).stop;
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "test",
      logger,
      tracer: startTracing({ service: "test" }).tracer,
    });
    database = openDatabase<WebhooksDatabase>({ url: infra.databaseUrl, schema, poolSize: 2 });
  });

  afterAll(async () => {
    await database?.close();
    await client?.close();
    await stop?.();
    await infra?.cleanup();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  const as = (accountId: string) => ({ accountId });
  async function create(accountId: string, path: string, eventos: webhooks.WebhookEvento[]) {
    const created = await client.request(
      webhooks.endpointCreate,
      { url: `${base}${path}`, eventos },
      as(accountId),
    );
    if (!created.ok) throw new Error(created.error.message);
    return created.value;
  }
  const at = (path: string, count: number) =>
    until(`${count} deliveries at ${path}`, () => {
      const got = received.filter((r) => r.path === path);
      return got.length >= count ? got : undefined;
    });
  const log = async (accountId: string, id: string) => {
    const page = await client.request(webhooks.entregaList, { id, limit: 100 }, as(accountId));
    if (!page.ok) throw new Error(page.error.message);
    return page.value.items;
  };

  it("delivers a signed webhook.prueba event to that endpoint only, whatever it subscribes to", async () => {
    const accountId = randomUUID();
    const target = await create(accountId, "/target", ["certificado.vencido"]);
    const sibling = await create(accountId, "/sibling", ["*"]);

    const sent = await client.request(webhooks.pruebaEnviar, { id: target.id }, as(accountId));
    if (!sent.ok) throw new Error(sent.error.message);
    expect(sent.value.entregaId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent.value.eventoId).toMatch(/^evt_[A-Za-z0-9_-]{32}$/);

    const [delivery] = await at("/target", 1);
    expect(delivery!.headers["webhook-id"]).toBe(sent.value.eventoId);
    const body = new Webhook(target.secreto).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    ) as Record<string, unknown>;
    expect(body).toEqual({
      id: sent.value.eventoId,
      tipo: "webhook.prueba",
      createdAt: expect.any(String) as string,
      data: { webhookId: target.id, mensaje: PRUEBA_MENSAJE },
    });
    expect(Date.parse(body.createdAt as string)).not.toBeNaN();
    expect(() =>
      new Webhook(sibling.secreto).verify(
        delivery!.body,
        delivery!.headers as Record<string, string>,
      ),
    ).toThrow();

    // logged as any delivery, delivered on its first attempt
    const item = await until("the test delivery recorded as delivered", async () => {
      const [first] = await log(accountId, target.id);
      return first?.status === "delivered" ? first : undefined;
    });
    expect(item).toMatchObject({
      id: sent.value.entregaId,
      eventoId: sent.value.eventoId,
      tipo: "webhook.prueba",
      intentos: 1,
      ultimoStatusCode: 204,
      proximoIntentoAt: null,
    });
    // the other endpoint of the account, subscribed to everything, got nothing
    expect(await log(accountId, sibling.id)).toEqual([]);
    expect(received.filter((r) => r.path === "/sibling")).toEqual([]);

    // each test is a new event
    const again = await client.request(webhooks.pruebaEnviar, { id: target.id }, as(accountId));
    if (!again.ok) throw new Error(again.error.message);
    expect(again.value.eventoId).not.toBe(sent.value.eventoId);
    expect(again.value.entregaId).not.toBe(sent.value.entregaId);
    const [, second] = await at("/target", 2);
    expect(second!.headers["webhook-id"]).toBe(again.value.eventoId);
    expect(lines.join("\n")).not.toContain(target.secreto.slice(6));
  });

  it("retries a failing receiver and signs with both secrets during a rotation", async () => {
    const accountId = randomUUID();
    const flaky = await create(accountId, "/flaky", ["comprobante.autorizado"]);
    const rotated = await client.request(webhooks.secretoRotate, { id: flaky.id }, as(accountId));
    if (!rotated.ok) throw new Error(rotated.error.message);
    const sent = await client.request(webhooks.pruebaEnviar, { id: flaky.id }, as(accountId));
    if (!sent.ok) throw new Error(sent.error.message);
    const attempts = await at("/flaky", 2);
    expect(attempts.map((a) => a.headers["webhook-id"])).toEqual([
      sent.value.eventoId,
      sent.value.eventoId,
    ]);
    for (const secreto of [flaky.secreto, rotated.value.secreto]) {
      expect(
        new Webhook(secreto).verify(
          attempts[1]!.body,
          attempts[1]!.headers as Record<string, string>,
        ),
      ).toMatchObject({ tipo: "webhook.prueba" });
    }
    const item = await until("the retried test delivered", async () => {
      const [first] = await log(accountId, flaky.id);
      return first?.status === "delivered" ? first : undefined;
    });
    expect(item).toMatchObject({ intentos: 2, ultimoStatusCode: 204 });
  });

  it("refuses a paused endpoint and answers unknown, malformed and other accounts' ids alike", async () => {
    const accountId = randomUUID();
    const paused = await create(accountId, "/paused", ["*"]);
    await client.request(
      webhooks.endpointUpdate,
      { id: paused.id, changes: { activo: false } },
      as(accountId),
    );
    const refused = await client.request(webhooks.pruebaEnviar, { id: paused.id }, as(accountId));
    expect(refused.ok ? undefined : refused.error).toMatchObject({
      code: "WEBHOOK_INACTIVE",
      message:
        "El webhook está pausado (activo: false): activalo para enviarle un evento de prueba",
    });
    for (const [id, who] of [
      [paused.id, randomUUID()],
      [randomUUID(), accountId],
      ["no-es-un-id", accountId],
    ] as const) {
      const answer = await client.request(webhooks.pruebaEnviar, { id }, as(who));
      expect(answer.ok ? undefined : answer.error.code).toBe("WEBHOOK_NOT_FOUND");
    }
    const rows = await database.db
      .selectFrom("entregas")
      .select("id")
      .where("endpoint_id", "=", paused.id)
      .execute();
    expect(rows).toEqual([]);
    expect(received.filter((r) => r.path === "/paused")).toEqual([]);
  });
});
