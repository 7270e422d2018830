import { defineContract } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { startTracing } from "@pasarela/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { bind, connectBus, type Bus } from "../src/index.js";

const owned = defineContract({
  subject: "test.owned.get",
  request: z.object({ text: z.string() }).strict(),
  reply: z.object({ text: z.string(), accountId: z.string() }),
  errors: [],
  needsAccount: true,
});
const open = defineContract({
  subject: "test.open.get",
  request: z.object({ text: z.string() }).strict(),
  reply: z.object({ text: z.string(), accountId: z.string().nullable() }),
  errors: [],
});

describe("a subject that needs an account", () => {
  let infra: FileInfra;
  let server: Bus;
  let client: Bus;
  const { logger } = capturingLogger();
  const { tracer } = startTracing({ service: "test" });
  const calls = { owned: 0, open: 0 };

  beforeAll(async () => {
    infra = await fileInfra();
    const options = { url: infra.natsUrl, prefix: infra.prefix, logger, tracer };
    server = await connectBus({ ...options, name: "server" });
    client = await connectBus({ ...options, name: "client" });
    server.serve({ name: "test" }, [
      bind(owned, (request, ctx) => {
        calls.owned++;
        // typed as a string: the bus answered for the request that carried none
        const accountId: string = ctx.accountId;
        return Promise.resolve(ok({ text: request.text, accountId }));
      }),
      bind(open, (request, ctx) => {
        calls.open++;
        return Promise.resolve(ok({ text: request.text, accountId: ctx.accountId ?? null }));
      }),
    ]);
    // the subscriptions are the server's before the first request (else: no responders)
    await server.connection.flush();
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await infra?.cleanup();
  });

  it("answers UNAUTHORIZED to a request without one, and its handler never runs", async () => {
    const before = calls.owned;
    expect(await client.request(owned, { text: "hola" })).toEqual({
      ok: false,
      error: { code: "UNAUTHORIZED", message: "No autorizado" },
    });
    // the account is checked before the body: a malformed one answers the same
    expect(await client.request(owned, { text: 3 } as unknown as { text: string })).toEqual({
      ok: false,
      error: { code: "UNAUTHORIZED", message: "No autorizado" },
    });
    expect(calls.owned).toBe(before);
  });

  it("serves a request that names one", async () => {
    const before = calls.owned;
    expect(await client.request(owned, { text: "hola" }, { accountId: "acc-1" })).toEqual({
      ok: true,
      value: { text: "hola", accountId: "acc-1" },
    });
    expect(calls.owned).toBe(before + 1);
  });

  it("leaves a subject without the flag served with or without an account", async () => {
    expect(await client.request(open, { text: "hola" })).toEqual({
      ok: true,
      value: { text: "hola", accountId: null },
    });
    expect(await client.request(open, { text: "hola" }, { accountId: "acc-2" })).toEqual({
      ok: true,
      value: { text: "hola", accountId: "acc-2" },
    });
    expect(calls.open).toBe(2);
  });
});
