import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connectBus, type Bus } from "@pasarela/bus";
import { webhooks, wsfe } from "@pasarela/contracts";
import { openDatabase, type Database } from "@pasarela/db";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhooksDatabase } from "../src/db/database.js";
import { makeEntregasRepository } from "../src/db/repositories/entregas.js";
import { payloadId } from "../src/domain/payload.js";
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

describe("webhook deliveries from the bus events", () => {
  let infra: FileInfra;
  let client: Bus;
  let stop: () => Promise<void>;
  let database: Database<WebhooksDatabase>;
  let server: Server;
  let base: string;
  const received: Received[] = [];
  const { logger } = capturingLogger("webhooks");

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received.push({
          path: req.url ?? "",
          headers: req.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
        res.writeHead(200).end();
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

  const outcome = (accountId: string, cbteNro: number) => {
    const comprobanteId = randomUUID();
    return {
      comprobanteId,
      version: 1 as const,
      accountId,
      environment: "homologacion" as const,
      representada: "20111111112",
      ptoVta: 3,
      cbteTipo: 11,
      cbteNro,
      cbteFch: "20261127",
      totales: {
        impTotal: "10.00",
        impNeto: "10.00",
        impIVA: "0.00",
        impTrib: "0.00",
        impTotConc: "0.00",
        impOpEx: "0.00",
      },
      moneda: { id: "PES", cotizacion: "1" },
      requestId: `req-${cbteNro}`,
      idempotencyKey: null,
      occurredAt: new Date().toISOString(),
    };
  };

  it("delivers each outcome to the active endpoints subscribed to it, once per endpoint and event", async () => {
    const accountId = randomUUID();
    const autorizados = await create(accountId, "/a", ["comprobante.autorizado"]);
    const rechazos = await create(accountId, "/r", ["comprobante.rechazado"]);
    const pausado = await create(accountId, "/p", ["*"]);
    await client.request(
      webhooks.endpointUpdate,
      { id: pausado.id, changes: { activo: false } },
      as(accountId),
    );
    // another account's endpoint never sees this account's events
    await create(randomUUID(), "/otra", ["*"]);

    const autorizadoBase = outcome(accountId, 1);
    const autorizado = {
      ...autorizadoBase,
      id: wsfe.comprobanteEventId(autorizadoBase.comprobanteId, "autorizado"),
      cae: "12345678901234",
      caeVencimiento: "20261207",
      observaciones: [],
    };
    await client.publish(wsfe.comprobanteAutorizado, autorizado);
    const rejectedBase = outcome(accountId, 2);
    const answer = { code: "AUTHORITY_REJECTED", message: "Rechazado", details: { n: 2 } };
    const rechazado = {
      ...rejectedBase,
      id: wsfe.comprobanteEventId(rejectedBase.comprobanteId, "rechazado"),
      observaciones: [],
      errores: [{ code: 10016, msg: "Numero" }],
      answer,
    };
    await client.publish(wsfe.comprobanteRechazado, rechazado);

    const [a] = await until("the authorized delivery", () => {
      const got = received.filter((r) => r.path === "/a");
      return got.length > 0 ? got : undefined;
    });
    const body = new Webhook(autorizados.secreto).verify(
      a!.body,
      a!.headers as Record<string, string>,
    );
    expect(body).toMatchObject({
      id: payloadId(autorizado.id),
      tipo: "comprobante.autorizado",
      environment: "homologacion",
      data: { cae: "12345678901234", cbteNro: 1 },
    });
    const [r] = await until("the rejected delivery", () => {
      const got = received.filter((x) => x.path === "/r");
      return got.length > 0 ? got : undefined;
    });
    expect(
      new Webhook(rechazos.secreto).verify(r!.body, r!.headers as Record<string, string>),
    ).toMatchObject({ tipo: "comprobante.rechazado", data: answer });

    // the same event again (a redelivery after a crash before its acknowledgement)
    const entregas = makeEntregasRepository(database.db);
    const payload = JSON.parse(a!.body) as Parameters<typeof entregas.enqueue>[2];
    expect(await entregas.enqueue(accountId, autorizado.id, payload)).toBe(0);
    const rows = await database.db
      .selectFrom("entregas")
      .select(["endpoint_id", "status", "attempts"])
      .where("account_id", "=", accountId)
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows.map((row) => row.endpoint_id).sort()).toEqual([autorizados.id, rechazos.id].sort());
    await until("both recorded as delivered", async () => {
      const done = await database.db
        .selectFrom("entregas")
        .select("id")
        .where("account_id", "=", accountId)
        .where("status", "=", "delivered")
        .where("attempts", "=", 1)
        .execute();
      return done.length === 2 ? done : undefined;
    });
    expect(received.filter((x) => x.path === "/p" || x.path === "/otra")).toEqual([]);
    expect(received.filter((x) => x.path === "/a")).toHaveLength(1);
  });

  it("pages an endpoint's log with cursors valid for that endpoint only", async () => {
    const accountId = randomUUID();
    const endpoint = await create(accountId, "/log", ["comprobante.no_emitido"]);
    const other = await create(accountId, "/log2", ["comprobante.no_emitido"]);
    for (const n of [10, 11, 12]) {
      const b = outcome(accountId, n);
      await client.publish(wsfe.comprobanteNoEmitido, {
        ...b,
        id: wsfe.comprobanteEventId(b.comprobanteId, "no_emitido"),
        motivo: "no_emitido",
      });
    }
    await until("three deliveries logged", async () => {
      const page = await client.request(
        webhooks.entregaList,
        { id: endpoint.id, limit: 100 },
        as(accountId),
      );
      return page.ok && page.value.items.length === 3 ? page : undefined;
    });
    const first = await client.request(
      webhooks.entregaList,
      { id: endpoint.id, limit: 2 },
      as(accountId),
    );
    if (!first.ok) throw new Error(first.error.message);
    expect(first.value.items).toHaveLength(2);
    expect(first.value.nextCursor).not.toBeNull();
    const second = await client.request(
      webhooks.entregaList,
      { id: endpoint.id, limit: 2, cursor: first.value.nextCursor! },
      as(accountId),
    );
    if (!second.ok) throw new Error(second.error.message);
    expect(second.value.nextCursor).toBeNull();
    const ids = [...first.value.items, ...second.value.items].map((item) => item.id);
    expect(new Set(ids).size).toBe(3);
    expect(first.value.items[0]!.createdAt >= second.value.items[0]!.createdAt).toBe(true);

    const elsewhere = await client.request(
      webhooks.entregaList,
      { id: other.id, limit: 2, cursor: first.value.nextCursor! },
      as(accountId),
    );
    expect(elsewhere.ok ? undefined : elsewhere.error.code).toBe("INVALID_FIELD");
    const stranger = await client.request(
      webhooks.entregaList,
      { id: endpoint.id, limit: 2 },
      as(randomUUID()),
    );
    expect(stranger.ok ? undefined : stranger.error.code).toBe("WEBHOOK_NOT_FOUND");
    const foreign = await client.request(
      webhooks.entregaReenviar,
      { id: other.id, entregaId: first.value.items[0]!.id },
      as(accountId),
    );
    expect(foreign.ok ? undefined : foreign.error.code).toBe("WEBHOOK_NOT_FOUND");
  });
});
