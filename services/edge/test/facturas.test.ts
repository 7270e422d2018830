import { wsfe } from "@pasarela/contracts";
import { authorityRejected } from "@pasarela/errors";
import { capturingLogger } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EdgeError } from "../src/http/edge-error.js";
import { routeModules, type RouteModule } from "../src/index.js";
import { facturaExamples } from "../src/routes/factura-examples.js";
import { newKey, startBillingEdge, type BillingEdge } from "./billing-edge.js";

const rejectingRoutes: RouteModule = {
  name: "rejecting",
  services: [],
  plugin: (app) => {
    app.post("/rejecting", () => {
      const error = authorityRejected({
        observaciones: [{ code: 10048, msg: "ImpTotal no coincide" }],
        errores: [{ code: 10016, msg: "El numero o fecha del comprobante no se corresponde" }],
      });
      throw new EdgeError({ ...error, details: { ...error.details, cbteNro: 8 } });
    });
    return Promise.resolve();
  },
};

/**
 * The issuance route as the edge sees it, with billing but no wsfe: everything here is decided
 * before any service is asked (a request that got through answers 503, nobody responds).
 */
describe("edge: POST /api/wsfe/facturas before wsfe", () => {
  let stack: BillingEdge;
  let rw: string;
  let ro: string;

  beforeAll(async () => {
    stack = await startBillingEdge({
      pepper: "facturas-test-pepper-facturas-test-0123",
      logger: capturingLogger("edge").logger,
      requestTimeoutMs: 1_000,
      app: { routes: [...routeModules.filter((m) => m.name === "facturas"), rejectingRoutes] },
    });
    const [write, read] = await Promise.all([
      newKey(stack.client, "read_write"),
      newKey(stack.client, "read_only"),
    ]);
    rw = `Bearer ${write.secret}`;
    ro = `Bearer ${read.secret}`;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const issue = (authorization: string, payload: unknown, headers: Record<string, string> = {}) =>
    stack.edge.app.inject({
      method: "POST",
      url: "/api/wsfe/facturas",
      headers: { authorization, ...headers },
      payload: payload as Record<string, unknown>,
    });
  const valid = facturaExamples.facturaBConsumidorFinal.value;

  it("refuses a read_only key with the issuance group's message, before reading the body", async () => {
    const response = await issue(ro, { nothing: "valid" });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: "Esta API key es de solo lectura y no puede emitir comprobantes.",
      code: "READ_ONLY_KEY",
    });
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["longer than 255 characters", "k".repeat(256)],
  ])("answers 400 naming Idempotency-Key when it is %s", async (_name, value) => {
    const response = await issue(rw, valid, { "idempotency-key": value });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: string; code: string }>();
    expect(body.code).toBe("INVALID_FIELD");
    expect(body.error).toContain("Idempotency-Key");
  });

  it("passes a key of 255 characters on to wsfe (which is not running here: 503)", async () => {
    const response = await issue(rw, valid, { "idempotency-key": "k".repeat(255) });
    expect(response.statusCode).toBe(503);
  });

  it("refuses unknown fields, idempotencyKey in the body included", async () => {
    const response = await issue(rw, { ...valid, idempotencyKey: "abc" });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toContain("idempotencyKey");
  });

  /** The valid example as JSON text with one item field's value written as `literal`. */
  const withLiteral = (field: "cantidad" | "precioUnitario", literal: string) => {
    const marker = "__literal__";
    const body = { ...valid, items: [{ ...valid.items[0], [field]: marker }] };
    return JSON.stringify(body).replace(`"${marker}"`, literal);
  };

  it.each([
    ["cantidad", "1.000000000000000000001"],
    ["precioUnitario", "1e-400"],
  ] as const)(
    "answers 400 naming items.0.%s for %s, which a double would round, before wsfe",
    async (field, literal) => {
      const response = await issue(rw, withLiteral(field, literal), {
        "content-type": "application/json",
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: `El campo items.0.${field} tiene un número (${literal}) que no se puede leer sin redondearlo: enviá hasta 15 dígitos significativos, o el valor como texto decimal ("1.5") donde el campo lo admita`,
        code: "INEXACT_NUMBER",
        details: { field: `items.0.${field}`, literal },
      });
    },
  );

  it("passes the same literals written as decimal text on to wsfe (not running here: 503)", async () => {
    const response = await issue(rw, withLiteral("precioUnitario", '"1.5"'), {
      "content-type": "application/json",
    });
    expect(response.statusCode).toBe(503);
  });

  it.each([
    ["utf-16", "utf16le"],
    ["UTF-16LE", "utf16le"],
    ["latin1", "latin1"],
    ["iso-8859-1", "latin1"],
  ] as const)("answers 415 for a body declared charset=%s", async (charset, encoding) => {
    const text = JSON.stringify({ ...valid, items: [{ ...valid.items[0], descripcion: "Ñandú" }] });
    const response = await issue(rw, Buffer.from(text, encoding), {
      "content-type": `application/json; charset=${charset}`,
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      error: `El cuerpo de la solicitud debe estar codificado en UTF-8: Content-Type declara charset=${charset}; enviá el JSON en UTF-8 (charset=utf-8, o sin charset)`,
      code: "UNSUPPORTED_CHARSET",
      details: { charset },
    });
  });

  it("lists the accepted types for an unsupported cbteTipo", async () => {
    const response = await issue(rw, { ...valid, cbteTipo: 19 });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ code: string }>().code).toBe("UNSUPPORTED_CBTE_TIPO");
  });

  it("documents the route with an example per kind of voucher, each a body the schema takes", async () => {
    const document = (await stack.edge.app.inject({ method: "GET", url: "/docs/json" })).json<{
      paths: Record<
        string,
        {
          post: {
            parameters?: { in: string; name: string }[];
            requestBody: {
              content: { "application/json": { examples: Record<string, { value: unknown }> } };
            };
            responses: Record<string, unknown>;
          };
        }
      >;
    }>();
    const operation = document.paths["/api/wsfe/facturas"]!.post;
    const examples = operation.requestBody.content["application/json"].examples;
    expect(Object.keys(examples).sort()).toEqual(
      [
        "facturaA",
        "facturaBConsumidorFinal",
        "facturaC",
        "notaDeCreditoA",
        "facturaServicios",
        "fceA",
        "facturaDolares",
      ].sort(),
    );
    for (const [name, example] of Object.entries(examples)) {
      const parsed = wsfe.facturaBodySchema.safeParse(example.value);
      expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    expect(
      operation.parameters?.some((p) => p.in === "header" && p.name === "idempotency-key"),
    ).toBe(true);
    expect(Object.keys(operation.responses).sort()).toEqual(
      ["200", "202", "400", "401", "402", "403", "409", "422", "429", "502", "503"].sort(),
    );
  });

  it("answers an authority rejection with resultado, observaciones and errores at the top", async () => {
    const rejected = await stack.edge.app.inject({
      method: "POST",
      url: "/api/rejecting",
      headers: { authorization: rw },
    });
    expect(rejected.statusCode).toBe(422);
    const body = rejected.json<Record<string, unknown>>();
    expect(body).toMatchObject({
      code: "AUTHORITY_REJECTED",
      resultado: "R",
      observaciones: [{ code: 10048, msg: "ImpTotal no coincide" }],
      errores: [{ code: 10016, msg: "El numero o fecha del comprobante no se corresponde" }],
      details: { cbteNro: 8 },
    });
    expect(body.error).toContain("/api/wsfe/ultimo-comprobante");
    expect(wsfe.facturaRejectedBodySchema.safeParse(body).success).toBe(true);
  });
});
