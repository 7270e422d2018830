import { createLogger, startMetricsServer, type MetricsServer } from "@pasarela/telemetry";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerMetrics } from "../src/http/metrics.js";
import { noteErrorCode } from "../src/http/usage.js";

/**
 * The code label of pasarela_http_requests_total comes from the one place the usage history
 * reads it: an answer replayed from an Idempotency-Key record (sent as stored, without the
 * error handler) is counted under its catalogue code, not as UNKNOWN.
 */
describe("edge request metrics", () => {
  let app: FastifyInstance;
  let metrics: MetricsServer;

  beforeAll(async () => {
    metrics = await startMetricsServer({
      process: "edge-test",
      port: 0,
      logger: createLogger({ service: "edge-test", level: "silent" }),
    });
    app = Fastify();
    registerMetrics(app);
    // what a replay does: the stored status and body, and the code noted
    app.post("/replayed", (request, reply) => {
      noteErrorCode(request, "AUTHORITY_REJECTED");
      return reply.code(422).send({ code: "AUTHORITY_REJECTED" });
    });
    app.post("/unexplained", (_request, reply) => reply.code(500).send({}));
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await metrics?.close();
  });

  const count = async (route: string, code: string) => {
    const text = await (await fetch(`${metrics.url}/metrics`)).text();
    const line = text
      .split("\n")
      .find(
        (l) =>
          l.startsWith("pasarela_http_requests_total{") &&
          l.includes(`route="${route}"`) &&
          l.includes(`code="${code}"`),
      );
    return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
  };

  it("counts a replayed error under its catalogue code", async () => {
    const before = await count("/replayed", "AUTHORITY_REJECTED");
    expect((await app.inject({ method: "POST", url: "/replayed" })).statusCode).toBe(422);
    expect(await count("/replayed", "AUTHORITY_REJECTED")).toBe(before + 1);
    expect(await count("/replayed", "UNKNOWN")).toBe(0);
  });

  it("names an error answered without a code UNKNOWN", async () => {
    expect((await app.inject({ method: "POST", url: "/unexplained" })).statusCode).toBe(500);
    expect(await count("/unexplained", "UNKNOWN")).toBe(1);
  });
});
