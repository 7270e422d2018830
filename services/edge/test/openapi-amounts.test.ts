import { capturingLogger } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBillingEdge, type BillingEdge } from "./billing-edge.js";

/** Fields that hold an amount wherever an answer has them. */
const AMOUNTS = new Set([
  "impTotal",
  "impNeto",
  "impIVA",
  "impTrib",
  "impTotConc",
  "impOpEx",
  "precioUnitario",
  "monto",
]);

interface JsonSchema {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** Every amount property of a schema, with where it is. */
function amountsIn(schema: JsonSchema, where: string): [string, JsonSchema][] {
  const found: [string, JsonSchema][] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (AMOUNTS.has(name)) found.push([`${where}.${name}`, property]);
    found.push(...amountsIn(property, `${where}.${name}`));
  }
  if (schema.items) found.push(...amountsIn(schema.items, `${where}[]`));
  for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    found.push(...amountsIn(part, where));
  }
  return found;
}

describe("amounts in the OpenAPI document", () => {
  let stack: BillingEdge;

  beforeAll(async () => {
    stack = await startBillingEdge({
      pepper: "openapi-amounts-pepper-openapi-amounts-0123",
      logger: capturingLogger("edge").logger,
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("answers every amount of every 2xx as a described JSON number", async () => {
    const document = (await stack.edge.app.inject({ method: "GET", url: "/docs/json" })).json<{
      paths: Record<
        string,
        Record<
          string,
          { responses?: Record<string, { content?: Record<string, { schema: JsonSchema }> }> }
        >
      >;
    }>();
    const amounts: [string, JsonSchema][] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const schema = response.content?.["application/json"]?.schema;
          if (!status.startsWith("2") || !schema) continue;
          amounts.push(...amountsIn(schema, `${method.toUpperCase()} ${path} ${status}`));
        }
      }
    }
    // the voucher list, its lookup, issuance, products and payment links all answer amounts
    for (const route of [
      "GET /api/wsfe/comprobantes 200",
      "POST /api/wsfe/comprobante 200",
      "POST /api/wsfe/facturas 200",
      "GET /api/productos 200",
      "GET /api/productos/{id} 200",
      "GET /api/links-de-cobro/{id} 200",
    ]) {
      expect(
        amounts.some(([where]) => where.startsWith(route)),
        route,
      ).toBe(true);
    }
    for (const [where, schema] of amounts) {
      expect(schema.type, where).toBe("number");
      expect(schema.description, where).toMatch(/número JSON/);
    }
  });
});
