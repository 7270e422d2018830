import { context, trace } from "@opentelemetry/api";
import { defineContract, defineEvent } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { startTracing } from "@pasarela/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { bind, connectBus, type Bus } from "../src/index.js";

const echo = defineContract({
  subject: "test.echo.get",
  request: z.object({ text: z.string() }).strict(),
  reply: z.object({ text: z.string(), accountId: z.string().nullable(), traceId: z.string() }),
  errors: ["CLIENTE_NOT_FOUND"],
});
const broken = defineContract({
  subject: "test.broken.get",
  request: z.object({}),
  reply: z.object({ n: z.number() }),
  errors: [],
});
const happened = defineEvent({
  subject: "evt.test.thing.happened",
  version: 1,
  schema: z.object({ id: z.string(), n: z.number() }),
});

describe("bus", () => {
  let infra: FileInfra;
  let server: Bus;
  let client: Bus;
  const { logger, lines } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });

  beforeAll(async () => {
    infra = await fileInfra();
    const options = { url: infra.natsUrl, prefix: infra.prefix, logger, tracer };
    server = await connectBus({ ...options, name: "server" });
    client = await connectBus({ ...options, name: "client" });
    server.serve({ name: "test" }, [
      bind(echo, (request, ctx) => {
        if (request.text === "missing") return Promise.resolve(fail(appError("CLIENTE_NOT_FOUND")));
        const traceId = trace.getActiveSpan()?.spanContext().traceId ?? "";
        return Promise.resolve(
          ok({ text: request.text, accountId: ctx.accountId ?? null, traceId }),
        );
      }),
      bind(broken, () => Promise.reject(new Error("boom"))),
    ]);
    await server.ensureEventStream();
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await infra?.cleanup();
  });

  it("carries the account id and the trace context in headers", async () => {
    const span = tracer.startSpan("edge request");
    const result = await context.with(trace.setSpan(context.active(), span), () =>
      client.request(echo, { text: "hola" }, { accountId: "acc-1" }),
    );
    span.end();
    expect(result).toEqual({
      ok: true,
      value: { text: "hola", accountId: "acc-1", traceId: span.spanContext().traceId },
    });
  });

  it("answers typed errors as values", async () => {
    const result = await client.request(echo, { text: "missing" });
    expect(result).toEqual({
      ok: false,
      error: { code: "CLIENTE_NOT_FOUND", message: "Cliente no encontrado" },
    });
  });

  it("answers INVALID_FIELD naming the field when the body breaks the schema", async () => {
    const result = await client.request(echo, { text: 3 } as unknown as { text: string });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("INVALID_FIELD");
      expect(result.error.message).toContain("text");
    }
  });

  it("turns a rejected async handler into INTERNAL and logs it", async () => {
    const result = await client.request(broken, {});
    expect(result).toEqual({ ok: false, error: { code: "INTERNAL", message: "Error interno" } });
    expect(lines.join("")).toContain("boom");
  });

  it("answers SERVICE_UNAVAILABLE when nobody serves the subject", async () => {
    const nobody = defineContract({ ...echo, subject: "test.nobody.get" });
    const result = await client.request(nobody, { text: "x" }, { timeoutMs: 500 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("publishes events to the stream, de-duplicated by id, and delivers them to listeners", async () => {
    const received: number[] = [];
    const subscription = client.listen(happened, (body) => {
      received.push(body.n);
    });
    await client.connection.flush();
    await server.publish(happened, { id: "e-1", n: 1 });
    await server.publish(happened, { id: "e-1", n: 1 });
    await server.publish(happened, { id: "e-2", n: 2 });
    await expect.poll(() => received.length).toBeGreaterThanOrEqual(3);
    subscription.unsubscribe();
    const jsm = await server.jetstream().jetstreamManager();
    const info = await jsm.streams.info(server.eventStreamName());
    expect(info.state.messages).toBe(2);
    expect(info.config.subjects).toEqual([`${infra.prefix}.evt.>`]);
  });
});
