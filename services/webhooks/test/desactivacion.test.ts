import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { bind, connectBus, type Bus, type Served } from "@pasarela/bus";
import { billing, mail, webhooks, wsfe } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, startWebhooks } from "../src/index.js";

const until = async <T>(what: string, probe: () => T | undefined | Promise<T | undefined>) => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const FAILURE_WINDOW_MS = 1_500;

/**
 * An endpoint failing for the whole (shortened) failure window is disabled once, its reason
 * shown, and its account's owner told by one `job.mail.mensaje`; PATCH activo:true resumes
 * its pending deliveries. Billing's owner lookup is answered here on the bus.
 */
describe("disabling an endpoint that keeps failing", () => {
  let infra: FileInfra;
  let client: Bus;
  let owners: Served;
  let stop: () => Promise<void>;
  let server: Server;
  let base: string;
  // by path: whether the receiver answers 200 now, and how many requests it got
  const healthy = new Set<string>();
  const hits = new Map<string, number>();
  const { logger, lines } = capturingLogger("webhooks");
  const ownerOf = new Map<string, { name: string; email: string }>();
  const mails: mail.MensajeJob[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        const path = req.url ?? "";
        hits.set(path, (hits.get(path) ?? 0) + 1);
        res.writeHead(healthy.has(path) ? 200 : 503).end("caído");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    infra = await fileInfra();
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "test",
      logger,
      tracer: startTracing({ service: "test" }).tracer,
    });
    const jobs = client.connection.subscribe(`${infra.prefix}.${mail.mensajeJob.subject}`);
    void (async () => {
      for await (const message of jobs) mails.push(message.json<mail.MensajeJob>());
    })();
    owners = client.serve({ name: "billing" }, [
      bind(billing.accountOwnerGet, ({ accountId }) => {
        const owner = ownerOf.get(accountId);
        return Promise.resolve(
          owner
            ? ok({ userId: randomUUID(), accountId, accountName: "Kiosco Uno", ...owner })
            : fail(appError("USER_NOT_FOUND")),
        );
      }),
    ]);
    const config = loadConfig({
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.prefix,
      DATABASE_URL: infra.databaseUrl,
      KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      WEBHOOKS_ALLOW_PRIVATE: "true",
      WEBHOOKS_RETRY_SCALE: "0.0001",
      WEBHOOKS_FAILURE_WINDOW_MS: String(FAILURE_WINDOW_MS),
    });
    stop = (await startWebhooks(config, logger)).stop;
  });

  afterAll(async () => {
    await stop?.();
    await owners?.stop();
    await client?.close();
    await infra?.cleanup();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  const as = (accountId: string) => ({ accountId });
  const get = async (accountId: string, id: string) => {
    const got = await client.request(webhooks.endpointGet, { id }, as(accountId));
    if (!got.ok) throw new Error(got.error.message);
    return got.value;
  };
  const authorized = async (accountId: string) => {
    const comprobanteId = randomUUID();
    await client.publish(wsfe.comprobanteAutorizado, {
      id: wsfe.comprobanteEventId(comprobanteId, "autorizado"),
      comprobanteId,
      version: 1,
      accountId,
      environment: "homologacion",
      representada: "20111111112",
      ptoVta: 3,
      cbteTipo: 11,
      cbteNro: 1,
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
      requestId: "req-1",
      idempotencyKey: null,
      occurredAt: new Date().toISOString(),
      cae: "12345678901234",
      caeVencimiento: "20261207",
      observaciones: [],
    });
  };
  /** The e-mails queued so far: a core subscriber sees what JetStream stores. */
  const queuedMails = () => Promise.resolve([...mails]);

  it("disables after the window, keeps why and when, e-mails the owner once, and resumes on PATCH", async () => {
    const accountId = randomUUID();
    ownerOf.set(accountId, { name: "Ana Dueña", email: "ana@kiosco.test" });
    const created = await client.request(
      webhooks.endpointCreate,
      { url: `${base}/caido`, eventos: ["*"], descripcion: "ERP" },
      as(accountId),
    );
    if (!created.ok) throw new Error(created.error.message);
    const { id } = created.value;
    expect(created.value).toMatchObject({
      activo: true,
      fallandoDesde: null,
      desactivadoAt: null,
      desactivadoMotivo: null,
    });

    const startedAt = Date.now();
    await authorized(accountId);
    const failing = await until("the first failure", async () => {
      const endpoint = await get(accountId, id);
      return endpoint.fallandoDesde ? endpoint : undefined;
    });
    expect(failing.activo).toBe(true);

    const disabled = await until("the endpoint disabled", async () => {
      const endpoint = await get(accountId, id);
      return endpoint.activo ? undefined : endpoint;
    });
    const since = Date.parse(disabled.fallandoDesde!);
    const at = Date.parse(disabled.desactivadoAt!);
    expect(since).toBeGreaterThanOrEqual(startedAt - 1_000);
    expect(at - since).toBeGreaterThanOrEqual(FAILURE_WINDOW_MS);
    expect(disabled.desactivadoMotivo).toMatch(
      /^Sus entregas fallaron sin interrupción durante \d+ minutos? \(desde .+ UTC\)\. Último intento: HTTP 503: caído$/,
    );

    const [aviso] = await until("the owner's e-mail", async () => {
      const mails = (await queuedMails()).filter((m) => m.to === "ana@kiosco.test");
      return mails.length > 0 ? mails : undefined;
    });
    expect(aviso!.subject).toBe(`Webhook desactivado: ${base}/caido`);
    expect(aviso!.text).toContain("Hola, Ana Dueña:");
    expect(aviso!.text).toContain(
      `Desactivamos el webhook ${base}/caido (ERP) de la cuenta Kiosco Uno`,
    );
    expect(aviso!.text).toContain(`Id del webhook: ${id}`);
    expect(aviso!.text).toContain("Último intento: HTTP 503: caído");
    expect(aviso!.text).toContain(`PATCH /api/webhooks/${id}\n  {"activo": true}`);

    // disabled: no more attempts, no second e-mail, new events not queued for it
    await new Promise((r) => setTimeout(r, 700));
    const hitsWhenDisabled = hits.get("/caido");
    await authorized(accountId);
    await new Promise((r) => setTimeout(r, 700));
    expect(hits.get("/caido")).toBe(hitsWhenDisabled);
    expect((await queuedMails()).filter((m) => m.to === "ana@kiosco.test")).toHaveLength(1);
    const log = await client.request(webhooks.entregaList, { id, limit: 10 }, as(accountId));
    if (!log.ok) throw new Error(log.error.message);
    expect(log.value.items).toHaveLength(1);
    expect(log.value.items[0]!.status).toBe("pending");

    // enabled again, the receiver back: the pending delivery is made, the failures forgotten
    healthy.add("/caido");
    const enabled = await client.request(
      webhooks.endpointUpdate,
      { id, changes: { activo: true } },
      as(accountId),
    );
    expect(enabled).toMatchObject({
      ok: true,
      value: { activo: true, fallandoDesde: null, desactivadoAt: null, desactivadoMotivo: null },
    });
    await until("the pending delivery made", async () => {
      const entregas = await client.request(webhooks.entregaList, { id, limit: 10 }, as(accountId));
      return entregas.ok && entregas.value.items[0]?.status === "delivered" ? true : undefined;
    });
    expect(await get(accountId, id)).toMatchObject({ activo: true, fallandoDesde: null });
    expect(lines.join("\n")).toContain("webhook disabled: owner told by e-mail");
  });

  it("disables an endpoint of an account without an owner, and says so in the log only", async () => {
    const accountId = randomUUID();
    const created = await client.request(
      webhooks.endpointCreate,
      { url: `${base}/sin-duenio`, eventos: ["comprobante.autorizado"] },
      as(accountId),
    );
    if (!created.ok) throw new Error(created.error.message);
    await authorized(accountId);
    const disabled = await until("the endpoint disabled", async () => {
      const endpoint = await get(accountId, created.value.id);
      return endpoint.activo ? undefined : endpoint;
    });
    expect(disabled.desactivadoMotivo).toContain("HTTP 503");
    await until("the log line", () =>
      lines.some((l) => l.includes("the account has no owner to tell by e-mail"))
        ? true
        : undefined,
    );
  });
});
