import { once } from "node:events";
import { connect } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { capturingLogger } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, routeModules, type RouteModule } from "../src/index.js";
import { newKey, startBillingEdge, type BillingEdge } from "./billing-edge.js";
import { exchange, type RawAnswer } from "./raw-http.js";

const REQUEST_TIMEOUT_MS = 1_000;

// A route slower to answer than the request time limit: the limit bounds receiving the
// request, never the time the edge takes to answer it.
const slowRoutes: RouteModule = {
  name: "slow",
  services: [],
  plugin: (app) => {
    app.get("/lento", async () => {
      await sleep(REQUEST_TIMEOUT_MS * 2.5);
      return { listo: true };
    });
    return Promise.resolve();
  },
};

/** A catalogue body `{error, code[, details]}` and nothing of fastify's or Node's own. */
function expectCatalogued(answer: RawAnswer | undefined, status: number, code: string) {
  expect(answer, `no answer, expected ${status} ${code}`).toBeDefined();
  const { status: got, body, headers } = answer!;
  expect(got, body).toBe(status);
  expect(headers["content-type"]).toMatch(/^application\/json/);
  expect(body.length).toBeGreaterThan(0);
  const parsed = JSON.parse(body) as Record<string, unknown>;
  expect(parsed.code).toBe(code);
  expect(typeof parsed.error).toBe("string");
  expect(Object.keys(parsed).every((k) => ["error", "code", "details"].includes(k))).toBe(true);
  return parsed as { error: string; code: string; details?: Record<string, unknown> };
}

describe("edge over a raw socket: every answer in the catalogue, bounded request time", () => {
  let stack: BillingEdge;
  let port: number;
  let auth: string;

  beforeAll(async () => {
    stack = await startBillingEdge({
      pepper: "protocol-test-pepper-protocol-test-0123",
      logger: capturingLogger("edge").logger,
      app: {
        routes: [...routeModules, slowRoutes],
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        connectionTimeoutMs: 10_000,
      },
    });
    await stack.edge.app.listen({ port: 0, host: "127.0.0.1" });
    port = (stack.edge.app.server.address() as { port: number }).port;
    auth = `Authorization: Bearer ${(await newKey(stack.client, "read_write")).secret}`;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const get = (target: string, ...headers: string[]) =>
    exchange(port, [`GET ${target} HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n`]);

  it("answers 400 INVALID_URL for a path that is not percent-encoded UTF-8", async () => {
    for (const target of ["/api/clientes/%ZZ", "/api/clientes/%ED%A0%80", "/api/wsfe/%"]) {
      expectCatalogued(await get(target, "Host: edge", auth), 400, "INVALID_URL");
    }
  });

  it("answers 414 URI_TOO_LONG for an id longer than any", async () => {
    expectCatalogued(
      await get(`/api/clientes/${"a".repeat(500)}`, "Host: edge", auth),
      414,
      "URI_TOO_LONG",
    );
  });

  it("answers 431 HEADERS_TOO_LARGE for headers over 16 KB, and closes", async () => {
    const answer = await get("/api/cuenta", "Host: edge", auth, `X-Relleno: ${"a".repeat(20_000)}`);
    expectCatalogued(answer, 431, "HEADERS_TOO_LARGE");
    expect(answer!.closed).toBe(true);
  });

  it.each([
    ["a request line that is not HTTP", "BASURA\r\n\r\n"],
    ["a header without a colon", "GET /api/cuenta HTTP/1.1\r\nHost edge\r\n\r\n"],
    ["a NUL in the request target", "GET /api/clientes/\u0000 HTTP/1.1\r\nHost: edge\r\n\r\n"],
    ["an unknown HTTP version", "GET /api/cuenta HTTP/7.3\r\nHost: edge\r\n\r\n"],
  ])("answers 400 MALFORMED_REQUEST for %s, and closes", async (_name, raw) => {
    const answer = await exchange(port, [raw]);
    expectCatalogued(answer, 400, "MALFORMED_REQUEST");
    expect(answer!.closed).toBe(true);
  });

  it.each([
    ["Content-Length then Transfer-Encoding", "Content-Length: 4\r\nTransfer-Encoding: chunked"],
    ["Transfer-Encoding then Content-Length", "Transfer-Encoding: chunked\r\nContent-Length: 4"],
    ["a Transfer-Encoding not ending in chunked", "Transfer-Encoding: gzip"],
    ["two Content-Length", "Content-Length: 4\r\nContent-Length: 5"],
  ])("answers 400 MALFORMED_REQUEST for %s (request smuggling)", async (_name, framing) => {
    const answer = await exchange(port, [
      `POST /api/clientes HTTP/1.1\r\nHost: edge\r\n${auth}\r\n` +
        `Content-Type: application/json\r\n${framing}\r\n\r\n0\r\n\r\n`,
    ]);
    const body = expectCatalogued(answer, 400, "MALFORMED_REQUEST");
    expect(body.error).toContain("Content-Length");
    expect(answer!.closed).toBe(true);
  });

  it("answers 400 MALFORMED_REQUEST naming Host for an HTTP/1.1 request without one, and serves HTTP/1.0 without it", async () => {
    const answer = await get("/api/cuenta", auth);
    const body = expectCatalogued(answer, 400, "MALFORMED_REQUEST");
    expect(body.error).toContain("Host");
    expect(answer!.closed).toBe(true);
    const old = await exchange(port, [`GET /api/cuenta HTTP/1.0\r\n${auth}\r\n\r\n`]);
    expect(old?.status).toBe(200);
  });

  it("answers 408 REQUEST_TIMEOUT to an authenticated request whose body stalls halfway, and closes", async () => {
    const body = '{"docTipo":96,"docNro":"30111222","razonSocial":"Lento SA"}';
    const answer = await exchange(port, [
      `POST /api/clientes HTTP/1.1\r\nHost: edge\r\n${auth}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body.slice(0, body.length / 2),
    ]);
    expectCatalogued(answer, 408, "REQUEST_TIMEOUT");
    expect(answer!.closed).toBe(true);
  });

  it("answers 408 REQUEST_TIMEOUT to headers that never end", async () => {
    const answer = await exchange(port, [`GET /api/cuenta HTTP/1.1\r\nHost: edge\r\n${auth}\r\n`]);
    expectCatalogued(answer, 408, "REQUEST_TIMEOUT");
  });

  it("lets an answer take longer than the request time limit once the request has arrived", async () => {
    const answer = await get("/api/lento", "Host: edge", auth);
    expect(answer?.status).toBe(200);
    expect(JSON.parse(answer!.body)).toEqual({ listo: true });
  });

  it("does not count the idle time of a kept-alive connection against the next request", async () => {
    const socket = connect({ port, host: "127.0.0.1" });
    await once(socket, "connect");
    const request = `GET /api/cuenta HTTP/1.1\r\nHost: edge\r\n${auth}\r\n\r\n`;
    const statuses: string[] = [];
    socket.on("data", (data: Buffer) => {
      for (const match of data.toString("utf8").matchAll(/^HTTP\/1\.1 (\d{3})/gm)) {
        statuses.push(match[1]!);
      }
    });
    const answered = async (count: number) => {
      const deadline = Date.now() + 10_000;
      while (statuses.length < count && Date.now() < deadline) await sleep(20);
    };
    try {
      socket.write(request);
      await answered(1);
      await sleep(REQUEST_TIMEOUT_MS * 2.5);
      socket.write(request);
      await answered(2);
      expect(statuses).toEqual(["200", "200"]);
    } finally {
      socket.destroy();
    }
  });

  it("refuses a connection timeout that would drop a stalled request before its 408", () => {
    expect(() =>
      loadConfig({ EDGE_REQUEST_TIMEOUT_MS: "30000", EDGE_CONNECTION_TIMEOUT_MS: "20000" }),
    ).toThrow(/EDGE_CONNECTION_TIMEOUT_MS/);
    expect(loadConfig({}).EDGE_REQUEST_TIMEOUT_MS).toBe(30_000);
  });
});
