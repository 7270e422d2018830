import { connect, type Socket } from "node:net";
import { connectBus, type Bus } from "@pasarela/bus";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, routeModules, startEdge, type RunningEdge } from "../src/index.js";

/** how long every service's health answer takes here: /readyz is in flight that long */
const HEALTH_MS = 1_500;

/** A TCP connection to the edge, or the error that refused it. */
function tcp(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => resolve(socket));
    socket.once("error", reject);
  });
}

describe("edge: SIGTERM's stop answers what is in flight and takes no new connection", () => {
  let infra: FileInfra;
  let services: Bus;
  const { logger } = capturingLogger("edge");
  const { tracer } = startTracing({ service: "test" });

  beforeAll(async () => {
    infra = await fileInfra();
    services = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "services",
      logger,
      tracer,
    });
    // every service /readyz asks about answers, slowly
    const names = new Set(["billing", ...routeModules.flatMap((m) => m.services)]);
    for (const name of names) {
      services.serve(
        {
          name,
          ready: () => new Promise((resolve) => setTimeout(() => resolve(true), HEALTH_MS)),
        },
        [],
      );
    }
    await services.connection.flush();
  });

  const startOne = (env: Record<string, string> = {}) =>
    startEdge(
      loadConfig({
        NATS_URL: infra.natsUrl,
        NATS_PREFIX: infra.prefix,
        DATABASE_URL: infra.databaseUrl,
        EDGE_PORT: "0",
        SHUTDOWN_DRAIN_MS: "10s",
        LOG_LEVEL: "warn",
        ...env,
      }),
      logger,
    );

  afterAll(async () => {
    await services?.close();
    await infra?.cleanup();
  });

  it("answers the request in flight 200, closes idle connections, refuses new ones", async () => {
    const edge = await startOne();
    const port = Number(new URL(edge.url).port);
    // a kept-alive connection that has answered one request and sits idle
    const idle = await tcp(port);
    const idleClosed = new Promise<void>((resolve) => idle.once("close", () => resolve()));
    idle.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await new Promise((resolve) => idle.once("data", resolve));

    const inFlight = fetch(`${edge.url}/readyz`);
    await new Promise((r) => setTimeout(r, 400));
    const startedAt = Date.now();
    const stopping = edge.stop();
    await new Promise((r) => setTimeout(r, 100));

    await expect(tcp(port)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await idleClosed;
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ready: true, nats: true });
    await stopping;
    // the stop waited for the answer, not for the keep-alive timeout nor the bound
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  });

  it("answers a request taken on a connection accepted before the stop, never a bare 503", async () => {
    const edge: RunningEdge = await startOne();
    const port = Number(new URL(edge.url).port);
    // accepted, the request begun (not idle): the stop finds it in the middle of its headers
    const socket = await tcp(port);
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    await new Promise((r) => setTimeout(r, 200));
    const stopping = edge.stop();
    await new Promise((r) => setTimeout(r, 200));
    await expect(tcp(port)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    socket.write("\r\n");
    await closed;
    await stopping;
    const answer = Buffer.concat(received).toString();
    // served as any other request, and the connection closed after it
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.toLowerCase()).toContain("connection: close");
  });

  it("with EDGE_STOP_DELAY_MS, serves new connections that long with /readyz answering 503, then refuses them", async () => {
    const edge = await startOne({ EDGE_STOP_DELAY_MS: "1500" });
    const port = Number(new URL(edge.url).port);
    const stopping = edge.stop();
    await new Promise((r) => setTimeout(r, 200));
    // still listening: a balancer's check hears that it is stopping, a request is served
    const ready = await fetch(`${edge.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ ready: false, nats: true, services: {}, stopping: true });
    const served = await fetch(`${edge.url}/healthz`);
    expect(served.status).toBe(200);
    expect(served.headers.get("connection")).toBe("close");
    await stopping;
    await expect(tcp(port)).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});
