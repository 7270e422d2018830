import { randomBytes, randomUUID } from "node:crypto";
import { connectBus, type Bus } from "@pasarela/bus";
import { webhooks } from "@pasarela/contracts";
import { openDatabase, type Database } from "@pasarela/db";
import { makeSealer } from "@pasarela/sealing";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhooksDatabase } from "../src/db/database.js";
import { makeEndpointsRepository } from "../src/db/repositories/endpoints.js";
import { loadConfig, schema, startWebhooks } from "../src/index.js";

/** A resolver that knows a few names: the service must ask it for every name it is given. */
const names: Record<string, string[]> = {
  "hooks.example.com": ["93.184.216.34", "2606:2800:220:1::1"],
  "internal.example.com": ["93.184.216.34", "10.20.30.40"],
  "metadata.example.com": ["169.254.169.254"],
};
const resolve = (hostname: string) => {
  const found = names[hostname];
  return found ? Promise.resolve(found) : Promise.reject(new Error(`ENOTFOUND ${hostname}`));
};

describe("webhooks service over the bus (WEBHOOKS_ALLOW_PRIVATE off)", () => {
  let infra: FileInfra;
  let client: Bus;
  let stop: () => Promise<void>;
  let database: Database<WebhooksDatabase>;
  const key = randomBytes(32).toString("base64");
  const { logger, lines } = capturingLogger("webhooks");

  beforeAll(async () => {
    infra = await fileInfra();
    const config = loadConfig({
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.prefix,
      DATABASE_URL: infra.databaseUrl,
      KEY_ENCRYPTION_KEY: key,
    });
    expect(config.WEBHOOKS_ALLOW_PRIVATE).toBe(false);
    const service = await startWebhooks(config, logger, { resolve });
    stop = service.stop;
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
  });

  const as = (accountId: string) => ({ accountId });
  const notFound = {
    ok: false,
    error: { code: "WEBHOOK_NOT_FOUND", message: "Webhook no encontrado" },
  };

  async function create(accountId: string, input: webhooks.WebhookInput) {
    const created = await client.request(webhooks.endpointCreate, input, as(accountId));
    if (!created.ok) throw new Error(created.error.message);
    return created.value;
  }

  it("registers an endpoint with a secret answered once and stored sealed", async () => {
    const accountId = randomUUID();
    const created = await create(accountId, {
      url: "https://hooks.example.com/pasarela",
      eventos: ["cobro.pagado", "comprobante.autorizado", "cobro.pagado"],
      descripcion: "  ERP  ",
    });
    expect(created).toMatchObject({
      url: "https://hooks.example.com/pasarela",
      eventos: ["comprobante.autorizado", "cobro.pagado"],
      descripcion: "ERP",
      activo: true,
    });
    expect(created.secreto).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const { secreto, ...endpoint } = created;

    const got = await client.request(webhooks.endpointGet, { id: created.id }, as(accountId));
    expect(got).toEqual({ ok: true, value: endpoint });
    const listed = await client.request(webhooks.endpointList, {}, as(accountId));
    expect(listed).toEqual({ ok: true, value: { items: [endpoint] } });
    expect(JSON.stringify(listed)).not.toContain(secreto.slice(6));

    // at rest: ciphertext only, opened by the key and the endpoint's own context
    const row = await database.db
      .selectFrom("endpoints")
      .select(["secreto", "account_id"])
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(row.account_id).toBe(accountId);
    expect(row.secreto.toString("latin1")).not.toContain(secreto.slice(6, 20));
    const repository = makeEndpointsRepository(database.db, makeSealer(key));
    expect(await repository.signingSecrets(accountId, created.id, new Date())).toEqual([secreto]);
    // the log names the endpoint, never its secret
    expect(lines.join("\n")).not.toContain(secreto.slice(6));
  });

  it("answers an unknown, malformed or another account's id with the same 404", async () => {
    const owner = randomUUID();
    const { id } = await create(owner, { url: "https://hooks.example.com/", eventos: ["*"] });
    const stranger = as(randomUUID());
    expect(await client.request(webhooks.endpointGet, { id }, stranger)).toEqual(notFound);
    expect(await client.request(webhooks.endpointGet, { id: randomUUID() }, as(owner))).toEqual(
      notFound,
    );
    expect(await client.request(webhooks.endpointGet, { id: "x" }, as(owner))).toEqual(notFound);
    expect(
      await client.request(webhooks.endpointUpdate, { id, changes: { activo: false } }, stranger),
    ).toEqual(notFound);
    expect(await client.request(webhooks.secretoRotate, { id }, stranger)).toEqual(notFound);
    expect(await client.request(webhooks.endpointDelete, { id }, stranger)).toEqual(notFound);
    expect(await client.request(webhooks.endpointList, {}, stranger)).toEqual({
      ok: true,
      value: { items: [] },
    });
    // still there for its owner
    expect((await client.request(webhooks.endpointGet, { id }, as(owner))).ok).toBe(true);
  });

  it("refuses hosts that are or resolve to internal addresses, naming url", async () => {
    const accountId = randomUUID();
    for (const [url, problem] of [
      [
        "http://127.0.0.1:8080/hook",
        /^apunta a una dirección privada, local o reservada \(127\.0\.0\.1\)/,
      ],
      ["https://[::1]/", /^apunta a una dirección privada/],
      ["http://169.254.169.254/latest/meta-data", /\(169\.254\.169\.254\)/],
      ["https://192.168.0.10/", /\(192\.168\.0\.10\)/],
      ["https://localhost/", /^apunta a esta misma máquina/],
      ["https://internal.example.com/", /^tiene un host que resuelve a .*\(10\.20\.30\.40\)/],
      ["https://metadata.example.com/", /\(169\.254\.169\.254\)/],
      ["https://nowhere.example.com/", /^tiene un host que no se pudo resolver/],
    ] as const) {
      const answer = await client.request(
        webhooks.endpointCreate,
        { url, eventos: ["*"] },
        as(accountId),
      );
      expect(answer.ok, url).toBe(false);
      if (answer.ok) continue;
      expect(answer.error.code).toBe("INVALID_FIELD");
      expect(answer.error.details).toMatchObject({ field: "url" });
      expect(answer.error.message, url).toMatch(/^El campo url /);
      expect(answer.error.details?.problem, url).toMatch(problem);
    }
    expect(await client.request(webhooks.endpointList, {}, as(accountId))).toEqual({
      ok: true,
      value: { items: [] },
    });
  });

  it("updates what is sent, checking a new url the same way", async () => {
    const accountId = randomUUID();
    const created = await create(accountId, {
      url: "https://hooks.example.com/a",
      eventos: ["email.enviado"],
      descripcion: "x",
    });
    const refused = await client.request(
      webhooks.endpointUpdate,
      { id: created.id, changes: { url: "https://internal.example.com/b" } },
      as(accountId),
    );
    expect(refused).toMatchObject({ ok: false, error: { details: { field: "url" } } });
    const updated = await client.request(
      webhooks.endpointUpdate,
      {
        id: created.id,
        changes: { eventos: ["email.fallido", "*"], descripcion: null, activo: false },
      },
      as(accountId),
    );
    if (!updated.ok) throw new Error(updated.error.message);
    expect(updated.value).toMatchObject({
      id: created.id,
      url: "https://hooks.example.com/a",
      eventos: ["*"],
      descripcion: null,
      activo: false,
      createdAt: created.createdAt,
    });
    expect(Date.parse(updated.value.updatedAt)).toBeGreaterThanOrEqual(
      Date.parse(created.updatedAt),
    );
  });

  it("rotates: the new secret signs, the previous one for 24 hours beside it", async () => {
    const accountId = randomUUID();
    const created = await create(accountId, {
      url: "https://hooks.example.com/",
      eventos: ["*"],
    });
    const before = Date.now();
    const rotated = await client.request(webhooks.secretoRotate, { id: created.id }, as(accountId));
    if (!rotated.ok) throw new Error(rotated.error.message);
    const { secreto, anteriorVenceAt } = rotated.value;
    expect(rotated.value.id).toBe(created.id);
    expect(secreto).toMatch(/^whsec_/);
    expect(secreto).not.toBe(created.secreto);
    const expires = Date.parse(anteriorVenceAt);
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3600_000);

    const repository = makeEndpointsRepository(database.db, makeSealer(key));
    expect(await repository.signingSecrets(accountId, created.id, new Date())).toEqual([
      secreto,
      created.secreto,
    ]);
    expect(await repository.signingSecrets(accountId, created.id, new Date(expires + 1))).toEqual([
      secreto,
    ]);

    // a second rotation keeps only the secret it replaces beside the new one
    const again = await client.request(webhooks.secretoRotate, { id: created.id }, as(accountId));
    if (!again.ok) throw new Error(again.error.message);
    expect(await repository.signingSecrets(accountId, created.id, new Date())).toEqual([
      again.value.secreto,
      secreto,
    ]);
  });

  it("deletes for good: a second delete is 404", async () => {
    const accountId = randomUUID();
    const { id } = await create(accountId, { url: "https://hooks.example.com/", eventos: ["*"] });
    expect(await client.request(webhooks.endpointDelete, { id }, as(accountId))).toEqual({
      ok: true,
      value: { id },
    });
    expect(await client.request(webhooks.endpointGet, { id }, as(accountId))).toEqual(notFound);
    expect(await client.request(webhooks.endpointDelete, { id }, as(accountId))).toEqual(notFound);
  });

  it("keeps at most 20 endpoints per account, even when created at once", async () => {
    const accountId = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: webhooks.WEBHOOKS_PER_ACCOUNT_MAX + 3 }, (_, i) =>
        client.request(
          webhooks.endpointCreate,
          { url: `https://hooks.example.com/${i}`, eventos: ["*"] },
          as(accountId),
        ),
      ),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(webhooks.WEBHOOKS_PER_ACCOUNT_MAX);
    const refused = answers.filter((a) => !a.ok);
    expect(refused).toHaveLength(3);
    expect(refused[0]).toEqual({
      ok: false,
      error: {
        code: "WEBHOOK_LIMIT_REACHED",
        message: "Llegaste al máximo de 20 webhooks por cuenta: eliminá uno para registrar otro",
      },
    });
    // another account is not affected
    await create(randomUUID(), { url: "https://hooks.example.com/", eventos: ["*"] });
  });

  it("refuses a request that names no account", async () => {
    expect(await client.request(webhooks.endpointList, {})).toEqual({
      ok: false,
      error: { code: "UNAUTHORIZED", message: "No autorizado" },
    });
  });
});

describe("webhooks configuration", () => {
  it("lifts the address rule only when WEBHOOKS_ALLOW_PRIVATE is true", () => {
    const base = { KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64") };
    expect(loadConfig(base).WEBHOOKS_ALLOW_PRIVATE).toBe(false);
    expect(loadConfig({ ...base, WEBHOOKS_ALLOW_PRIVATE: "" }).WEBHOOKS_ALLOW_PRIVATE).toBe(false);
    expect(loadConfig({ ...base, WEBHOOKS_ALLOW_PRIVATE: "true" }).WEBHOOKS_ALLOW_PRIVATE).toBe(
      true,
    );
    expect(() => loadConfig({ ...base, WEBHOOKS_ALLOW_PRIVATE: "yes" })).toThrow();
  });
});
