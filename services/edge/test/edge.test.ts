import { billing, environmentSchema, representadaSchema } from "@pasarela/contracts";
import { capturingLogger } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { buildApp, routeModules, type RouteModule } from "../src/index.js";
import { newKey as newKeyOf, startBillingEdge, type BillingEdge } from "./billing-edge.js";

// A write route of the "datos" group and a body with the common fields (environment,
// representada), so the mechanisms are tested here independently of the business routes.
let writesReached = 0;
const probeRoutes: RouteModule = {
  name: "probe",
  services: [],
  plugin: (app) => {
    app.post(
      "/probe",
      {
        config: { writeGroup: "datos" },
        schema: {
          body: z
            .object({
              environment: environmentSchema,
              representada: representadaSchema,
              ptoVta: z.number().int().optional(),
            })
            .strict(),
        },
      },
      (request) => {
        writesReached++;
        return Promise.resolve({ received: request.body });
      },
    );
    return Promise.resolve();
  },
};

describe("edge: authentication, errors, docs, health, tracing", () => {
  let stack: BillingEdge;
  const billingLogs = capturingLogger("billing");
  const edgeLogs = capturingLogger("edge");

  beforeAll(async () => {
    stack = await startBillingEdge({
      pepper: "edge-test-pepper-edge-test-pepper-0123",
      logger: edgeLogs.logger,
      billingLogger: billingLogs.logger,
      app: {
        bodyLimit: 4096,
        routes: [...routeModules.filter((m) => m.name === "cuenta"), probeRoutes],
      },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const newKey = (scope: billing.KeyScope) => newKeyOf(stack.client, scope);
  const get = (url: string, authorization?: string) =>
    stack.edge.app.inject({ method: "GET", url, headers: authorization ? { authorization } : {} });

  it("authenticates a key made by billing", async () => {
    const key = await newKey("read_write");
    const response = await get("/api/cuenta", `Bearer ${key.secret}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      accountId: key.accountId,
      keyId: key.keyId,
      scope: "read_write",
    });
  });

  it('answers exactly {"error":"No autorizado"} to every unauthenticated request', async () => {
    const key = await newKey("read_write");
    const wrong = key.secret.slice(0, -2) + (key.secret.endsWith("AA") ? "BB" : "AA");
    for (const authorization of [
      undefined,
      key.secret,
      `Token ${key.secret}`,
      `bearer ${key.secret}`,
      "Bearer ",
      `Bearer ${key.prefix}`,
      `Bearer ${wrong}`,
      "Bearer pas_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ]) {
      const response = await get("/api/cuenta", authorization);
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.body).toBe('{"error":"No autorizado"}');
    }
  });

  it("refuses a revoked key on the very next request, even when it was cached", async () => {
    const key = await newKey("read_write");
    expect((await get("/api/cuenta", `Bearer ${key.secret}`)).statusCode).toBe(200);
    const revoked = await stack.client.request(billing.keyRevoke, { keyId: key.keyId });
    expect(revoked.ok).toBe(true);
    await stack.edgeBus.connection.flush();
    const response = await get("/api/cuenta", `Bearer ${key.secret}`);
    expect(response.statusCode).toBe(401);
    expect(response.body).toBe('{"error":"No autorizado"}');
  });

  it("refuses a read_only key on a write route with the group's message, before the handler", async () => {
    const key = await newKey("read_only");
    const before = writesReached;
    const response = await stack.edge.app.inject({
      method: "POST",
      url: "/api/probe",
      headers: { authorization: `Bearer ${key.secret}` },
      payload: { environment: "homologacion", representada: "20111111112" },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: "Esta API key es de solo lectura y no puede modificar datos de la cuenta.",
      code: "READ_ONLY_KEY",
    });
    expect(writesReached).toBe(before);
  });

  describe("malformed input answers a catalogued 4xx naming the problem", () => {
    let auth: string;
    beforeAll(async () => {
      auth = `Bearer ${(await newKey("read_write")).secret}`;
    });
    const post = (payload: string, contentType = "application/json") =>
      stack.edge.app.inject({
        method: "POST",
        url: "/api/probe",
        headers: { authorization: auth, "content-type": contentType },
        payload,
      });

    it.each([
      ["not JSON", "{environment: homologacion", "INVALID_JSON", "JSON"],
      ["empty body", "", "INVALID_JSON", "vacío"],
      ["a JSON array", "[1,2]", "INVALID_FIELD", "cuerpo"],
      [
        "environment missing",
        '{"representada":"20111111112"}',
        "INVALID_FIELD",
        "environment es obligatorio",
      ],
      [
        "environment unknown",
        '{"environment":"test","representada":"20111111112"}',
        "INVALID_FIELD",
        "environment",
      ],
      [
        "representada with hyphens",
        '{"environment":"produccion","representada":"20-11111111-2"}',
        "INVALID_FIELD",
        "representada",
      ],
      [
        "representada as a number",
        '{"environment":"produccion","representada":20111111112}',
        "INVALID_FIELD",
        "representada",
      ],
      [
        "ptoVta as text",
        '{"environment":"produccion","representada":"20111111112","ptoVta":"1"}',
        "INVALID_FIELD",
        "ptoVta",
      ],
      [
        "an unknown field",
        '{"environment":"produccion","representada":"20111111112","extra":1}',
        "INVALID_FIELD",
        "extra",
      ],
      [
        "a prototype-polluting key",
        '{"environment":"produccion","representada":"20111111112","__proto__":{"x":1}}',
        "INVALID_JSON",
        "JSON",
      ],
    ])("%s", async (_name, payload, code, mentions) => {
      const response = await post(payload);
      expect(response.statusCode).toBe(400);
      const body = response.json<{ error: string; code: string }>();
      expect(body.code).toBe(code);
      expect(body.error).toContain(mentions);
    });

    it("a body over the limit is 413", async () => {
      const response = await post(
        JSON.stringify({ environment: "produccion", representada: "x".repeat(10_000) }),
      );
      expect(response.statusCode).toBe(413);
      expect(response.json<{ code: string }>().code).toBe("BODY_TOO_LARGE");
    });

    it("a body that is not JSON by Content-Type is 400 naming it", async () => {
      const response = await post("environment=produccion", "application/x-www-form-urlencoded");
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: string }>().error).toContain(
        "application/x-www-form-urlencoded",
      );
    });

    it("a valid body passes", async () => {
      const response = await post(
        '{"environment":"produccion","representada":"20111111112","ptoVta":3}',
      );
      expect(response.statusCode).toBe(200);
    });

    it("an unknown route is 404 in the catalogue shape", async () => {
      const response = await stack.edge.app.inject({
        method: "POST",
        url: "/api/nada",
        headers: { authorization: auth },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json<{ code: string }>().code).toBe("ROUTE_NOT_FOUND");
    });
  });

  it("serves the OpenAPI 3 document built from the zod schemas", async () => {
    const response = await get("/docs/json");
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toContain("/api/cuenta");
    expect((await get("/docs")).statusCode).toBeLessThan(400);
  });

  it("answers /healthz, and /readyz only while the services its routes need answer", async () => {
    expect((await get("/healthz")).statusCode).toBe(200);
    const ready = await get("/readyz");
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ready: true, nats: true, services: { billing: true } });
    const needy = await buildApp({
      bus: stack.edgeBus,
      logger: edgeLogs.logger,
      tracer: stack.tracer,
      routes: [{ ...probeRoutes, name: "needy", services: ["nonexistent"] }],
    });
    try {
      const notReady = await needy.app.inject({ method: "GET", url: "/readyz" });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toMatchObject({
        ready: false,
        services: { billing: true, nonexistent: false },
      });
    } finally {
      await needy.close();
    }
  });

  it("carries one trace id from the caller through the edge and billing and back", async () => {
    const key = await newKey("read_write");
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const response = await stack.edge.app.inject({
      method: "GET",
      url: "/api/cuenta",
      headers: {
        authorization: `Bearer ${key.secret}`,
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    // billing handled billing.key.verify inside the same trace, received through NATS headers
    const billingLine = billingLogs.lines.find(
      (line) => line.includes(traceId) && line.includes('"subject":"billing.key.verify"'),
    );
    expect(billingLine).toBeDefined();
    const edgeLine = edgeLogs.lines.find(
      (line) => line.includes(traceId) && line.includes('"msg":"request"'),
    );
    expect(edgeLine).toBeDefined();
  });

  it("gives every request a random id, answered in x-request-id", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const id = (await get("/healthz")).headers["x-request-id"];
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      ids.add(String(id));
    }
    expect(ids.size).toBe(5);
  });

  it("never writes a secret to the logs", async () => {
    const key = await newKey("read_write");
    await get("/api/cuenta", `Bearer ${key.secret}`);
    await get("/api/cuenta", `Bearer ${key.secret}x`);
    const all = [...billingLogs.lines, ...edgeLogs.lines].join("");
    expect(all).not.toContain(key.secret);
  });
});
