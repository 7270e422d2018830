import { capturingLogger } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newKey, startBillingEdge, type BillingEdge } from "./billing-edge.js";

// Every route of the OpenAPI document gets the same hostile input: none may answer outside
// the catalogue, and none may reach a service (only billing runs here, so input that slipped
// through would answer 503).
const hostileBodies: [string, string, string | Buffer][] = [
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
  ["plain text", "text/plain", '{"environment":"homologacion"}'],
  ["huge", "application/json", JSON.stringify({ environment: "x".repeat(2_000_000) })],
  // {"razonSocial":"<0xFF>"}: not UTF-8, never to be read as U+FFFD
  ["not UTF-8", "application/json", Buffer.from('{"razonSocial":"\xff"}', "latin1")],
];

/** Characters no field may hold (NUL, C0 controls, lone surrogates, noncharacters). */
const forbidden: [string, number][] = [
  ["\u0000", 0x0],
  ["\u0001", 0x1],
  ["\u000b", 0xb],
  ["\u001f", 0x1f],
  ["\ud800", 0xd800],
  ["\udfff", 0xdfff],
  ["\ufffe", 0xfffe],
  ["\uffff", 0xffff],
];
const hex = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;

type Method = "GET" | "POST" | "PATCH" | "DELETE";
interface Target {
  method: Method;
  /** the path with each parameter replaced by `fill(name)` */
  url: (fill: (name: string) => string) => string;
  params: string[];
  takesBody: boolean;
  /** the 4xx statuses this route may answer to malformed input */
  statuses: number[];
}

interface ErrorBody {
  error: string;
  code: string;
  details?: { field?: string };
}

describe("every route answers hostile input with a catalogued 4xx", () => {
  let stack: BillingEdge;
  let secret: string;
  let targets: Target[];

  beforeAll(async () => {
    stack = await startBillingEdge({
      pepper: "malformed-test-pepper-malformed-test-0123",
      logger: capturingLogger("edge").logger,
      requestTimeoutMs: 1_000,
    });
    ({ secret } = await newKey(stack.client, "read_write"));
    const document = (await stack.edge.app.inject({ method: "GET", url: "/docs/json" })).json<{
      paths: Record<
        string,
        Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>
      >;
    }>();
    targets = Object.entries(document.paths)
      .filter(([path]) => path.startsWith("/api/"))
      .flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => ({
          method: method.toUpperCase() as Method,
          url: (fill: (name: string) => string) =>
            path.replace(/\{([^}]+)\}/g, (_, name: string) => fill(name)),
          params: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
          takesBody: Boolean(operation.requestBody),
          // a 404 is acceptable only where the route documents one (an id that does not
          // resolve); a route missing from the router answers ROUTE_NOT_FOUND and must fail
          statuses: [400, 413, ...(operation.responses?.["404"] ? [404] : [])],
        })),
      );
    expect(targets.filter((t) => t.takesBody).length).toBeGreaterThan(0);
    expect(targets.filter((t) => t.params.length > 0).length).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const validParam = (name: string) =>
    name === "tabla" ? "tipos-comprobante" : "6f1c1f4e-0b6a-4e43-9b3f-3f1d0b8a7c11";
  const send = (target: Target, url: string, payload?: string | Buffer, contentType?: string) =>
    stack.edge.app.inject({
      method: target.method,
      url,
      headers: {
        authorization: `Bearer ${secret}`,
        ...(payload === undefined ? {} : { "content-type": contentType ?? "application/json" }),
      },
      ...(payload === undefined ? {} : { payload }),
    });

  it("for each body-taking route and each hostile body", async () => {
    for (const target of targets.filter((t) => t.takesBody)) {
      for (const [name, contentType, payload] of hostileBodies) {
        const url = target.url(validParam);
        const response = await send(target, url, payload, contentType);
        const where = `${target.method} ${url} with ${name}`;
        expect(target.statuses, where).toContain(response.statusCode);
        const body = response.json<ErrorBody>();
        expect(typeof body.error, where).toBe("string");
        expect(typeof body.code, where).toBe("string");
        expect(body.code, where).not.toBe("ROUTE_NOT_FOUND");
      }
    }
  });

  it("refuses on every body-taking route a number a double would round (400 naming it) and a charset other than UTF-8 (415)", async () => {
    for (const target of targets.filter((t) => t.takesBody)) {
      const url = target.url(validParam);
      const where = `${target.method} ${url}`;
      for (const literal of ["1.000000000000000000001", "1e-400", "12345678901234567890"]) {
        const response = await send(target, url, `{"items":[{"cantidad":${literal}}]}`);
        expect(response.statusCode, `${where} ${literal}`).toBe(400);
        expect(response.json<ErrorBody>(), `${where} ${literal}`).toMatchObject({
          code: "INEXACT_NUMBER",
          details: { field: "items.0.cantidad" },
        });
      }
      for (const charset of ["utf-16", "latin1"]) {
        const response = await send(target, url, "{}", `application/json; charset=${charset}`);
        expect(response.statusCode, `${where} ${charset}`).toBe(415);
        expect(response.json<ErrorBody>().code, `${where} ${charset}`).toBe("UNSUPPORTED_CHARSET");
      }
    }
  });

  it("refuses a forbidden character in any body field, query parameter or path parameter with 400 naming it", async () => {
    const expectRefusal = async (
      target: Target,
      url: string,
      field: string,
      codePoint: number,
      payload?: string,
    ) => {
      const response = await send(target, url, payload);
      const where = `${target.method} ${url} ${payload ?? ""} → ${field}`;
      expect(response.statusCode, where).toBe(400);
      const body = response.json<ErrorBody>();
      expect(body.code, where).toBe("INVALID_FIELD");
      expect(body.details?.field, where).toBe(field);
      expect(body.error, where).toContain(`El campo ${field} contiene un carácter no permitido`);
      expect(body.error, where).toContain(hex(codePoint));
    };
    for (const target of targets) {
      // an acceptable body where one is taken, so only the place under test is hostile
      const body = target.takesBody ? "{}" : undefined;
      for (const [character, codePoint] of forbidden) {
        if (target.takesBody) {
          const url = target.url(validParam);
          await expectRefusal(
            target,
            url,
            "razonSocial",
            codePoint,
            JSON.stringify({ razonSocial: `a${character}b` }),
          );
          await expectRefusal(
            target,
            url,
            "items.0.descripcion",
            codePoint,
            JSON.stringify({ items: [{ descripcion: character }] }),
          );
        }
        // a lone surrogate has no UTF-8 form to percent-encode: tested apart below
        if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
        const encoded = encodeURIComponent(character);
        await expectRefusal(
          target,
          `${target.url(validParam)}?q=${encoded}`,
          "querystring.q",
          codePoint,
          body,
        );
        for (const param of target.params) {
          await expectRefusal(
            target,
            target.url((name) => (name === param ? `x${encoded}` : validParam(name))),
            `params.${param}`,
            codePoint,
            body,
          );
        }
      }
      // percent-encoding that is not UTF-8 (a lone surrogate's bytes, or no hex at all)
      for (const encoded of ["%ED%A0%80", "%ZZ", "%E2%82"]) {
        const url = `${target.url(validParam)}?q=${encoded}`;
        const response = await send(target, url, body);
        expect(response.statusCode, url).toBe(400);
        expect(response.json<ErrorBody>().details?.field, url).toBe("querystring.q");
      }
    }
  });
});
