import { connectBus, type Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { loadConfig as loadBillingConfig, startBilling } from "@pasarela/billing";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type EdgeApp } from "../src/index.js";

// Every route that takes a body, read from the OpenAPI document, gets the same hostile bodies:
// none may answer outside the catalogue, and none may reach a service (only billing runs here,
// so a body that slipped through validation would answer 503).
const hostileBodies: [string, string, string][] = [
  ["not JSON", "application/json", "{nope"],
  ["empty", "application/json", ""],
  ["a JSON string", "application/json", '"hola"'],
  ["a JSON array", "application/json", "[]"],
  ["null", "application/json", "null"],
  [
    "wrong types",
    "application/json",
    '{"environment":1,"representada":2,"cbteTipo":"x","ptoVta":[]}',
  ],
  ["only unknown fields", "application/json", '{"zzz":1}'],
  ["deeply nested", "application/json", `${"[".repeat(5000)}${"]".repeat(5000)}`],
  ["form encoded", "application/x-www-form-urlencoded", "a=1"],
  ["huge", "application/json", JSON.stringify({ environment: "x".repeat(2_000_000) })],
];

describe("every body-taking route answers hostile bodies with a catalogued 4xx", () => {
  let infra: FileInfra;
  let bus: Bus;
  let edge: EdgeApp;
  let stopBilling: () => Promise<void>;
  let secret: string;
  const { logger } = capturingLogger("edge");
  const { tracer } = startTracing({ service: "test" });

  beforeAll(async () => {
    infra = await fileInfra();
    const service = await startBilling(
      loadBillingConfig({
        NATS_URL: infra.natsUrl,
        NATS_PREFIX: infra.prefix,
        DATABASE_URL: infra.databaseUrl,
        API_KEY_PEPPER: "malformed-test-pepper-malformed-test-0123",
      }),
      logger,
    );
    stopBilling = service.stop;
    bus = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "edge",
      logger,
      tracer,
      defaultTimeoutMs: 1_000,
    });
    edge = await buildApp({ bus, logger, tracer });
    const account = await bus.request(billing.accountCreate, { name: "fuzz" });
    if (!account.ok) throw new Error(account.error.message);
    const key = await bus.request(billing.keyCreate, {
      accountId: account.value.accountId,
      scope: "read_write",
    });
    if (!key.ok) throw new Error(key.error.message);
    secret = key.value.secret;
  });

  afterAll(async () => {
    await edge?.close();
    await bus?.close();
    await stopBilling?.();
    await infra?.cleanup();
  });

  it("for each route and each hostile body", async () => {
    const document = (await edge.app.inject({ method: "GET", url: "/docs/json" })).json<{
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    }>();
    const targets = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(
          ([method, operation]) =>
            ["post", "put", "patch"].includes(method) && operation.requestBody,
        )
        .map(([method]) => ({
          method: method.toUpperCase() as "POST" | "PUT" | "PATCH",
          url: path.replace(/\{[^}]+\}/g, (name) =>
            name === "{tabla}" ? "tipos-comprobante" : "6f1c1f4e-0b6a-4e43-9b3f-3f1d0b8a7c11",
          ),
        })),
    );
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) {
      for (const [name, contentType, payload] of hostileBodies) {
        const response = await edge.app.inject({
          ...target,
          headers: { authorization: `Bearer ${secret}`, "content-type": contentType },
          payload,
        });
        const where = `${target.method} ${target.url} with ${name}`;
        expect([400, 404, 413], where).toContain(response.statusCode);
        const body = response.json<{ error: string; code: string }>();
        expect(typeof body.error, where).toBe("string");
        expect(typeof body.code, where).toBe("string");
      }
    }
  });
});
