import { capturingLogger } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newKey, startBillingEdge, type BillingEdge } from "./billing-edge.js";

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
  let stack: BillingEdge;
  let secret: string;

  beforeAll(async () => {
    stack = await startBillingEdge({
      pepper: "malformed-test-pepper-malformed-test-0123",
      logger: capturingLogger("edge").logger,
      requestTimeoutMs: 1_000,
    });
    ({ secret } = await newKey(stack.client, "read_write"));
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("for each route and each hostile body", async () => {
    const document = (await stack.edge.app.inject({ method: "GET", url: "/docs/json" })).json<{
      paths: Record<
        string,
        Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>
      >;
    }>();
    const targets = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(
          ([method, operation]) =>
            ["post", "put", "patch"].includes(method) && operation.requestBody,
        )
        .map(([method, operation]) => ({
          method: method.toUpperCase() as "POST" | "PUT" | "PATCH",
          // a 404 is acceptable only where the route documents one (an id that does not
          // resolve); a route missing from the router answers ROUTE_NOT_FOUND and must fail
          statuses: [400, 413, ...(operation.responses?.["404"] ? [404] : [])],
          url: path.replace(/\{[^}]+\}/g, (name) =>
            name === "{tabla}" ? "tipos-comprobante" : "6f1c1f4e-0b6a-4e43-9b3f-3f1d0b8a7c11",
          ),
        })),
    );
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) {
      for (const [name, contentType, payload] of hostileBodies) {
        const response = await stack.edge.app.inject({
          method: target.method,
          url: target.url,
          headers: { authorization: `Bearer ${secret}`, "content-type": contentType },
          payload,
        });
        const where = `${target.method} ${target.url} with ${name}`;
        expect(target.statuses, where).toContain(response.statusCode);
        const body = response.json<{ error: string; code: string }>();
        expect(typeof body.error, where).toBe("string");
        expect(typeof body.code, where).toBe("string");
        expect(body.code, where).not.toBe("ROUTE_NOT_FOUND");
      }
    }
  });
});
