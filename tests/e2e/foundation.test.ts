import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2EStack, type E2EStack } from "../support/stack.js";

describe("foundation end to end: CLI keys, authentication, readiness, tracing", () => {
  let stack: E2EStack;

  beforeAll(async () => {
    stack = await startE2EStack();
  });
  afterAll(async () => {
    await stack?.teardown();
  });

  const cuenta = (authorization?: string, headers: Record<string, string> = {}) =>
    fetch(`${stack.edgeUrl}/api/cuenta`, {
      headers: { ...(authorization ? { authorization } : {}), ...headers },
    });

  it("is ready once every service answers", async () => {
    const response = await fetch(`${stack.edgeUrl}/readyz`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { ready: boolean }).ready).toBe(true);
  });

  it("authenticates a key made with the CLI and refuses it on the next request after revocation", async () => {
    const { accountId } = await stack.admin<{ accountId: string }>(
      "account",
      "create",
      "--name",
      "Kiosco",
    );
    const key = await stack.admin<{ keyId: string; prefix: string; secret: string }>(
      "key",
      "create",
      "--account",
      accountId,
      "--scope",
      "read_write",
    );
    expect(key.secret.startsWith(key.prefix)).toBe(true);

    const ok = await cuenta(`Bearer ${key.secret}`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ accountId, keyId: key.keyId, scope: "read_write" });

    const listed = await stack.admin<{ keys: Record<string, unknown>[] }>(
      "key",
      "list",
      "--account",
      accountId,
    );
    expect(listed.keys).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key.secret);

    expect(await stack.admin("key", "revoke", "--key", key.keyId)).toEqual({
      keyId: key.keyId,
      revoked: true,
    });
    const refused = await cuenta(`Bearer ${key.secret}`);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe('{"error":"No autorizado"}');
  });

  it('answers exactly {"error":"No autorizado"} without a valid bearer key', async () => {
    for (const authorization of [undefined, "pas_x", "Basic abc", "Bearer nope"]) {
      const response = await cuenta(authorization);
      expect(response.status).toBe(401);
      expect(await response.text()).toBe('{"error":"No autorizado"}');
    }
  });

  it("prints CLI errors as one JSON object on stderr with a non-zero exit", async () => {
    const run = await stack.adminRun(
      "key",
      "create",
      "--account",
      "00000000-0000-4000-8000-000000000000",
      "--scope",
      "read_only",
    );
    expect(run.code).not.toBe(0);
    expect(JSON.parse(run.stderr)).toEqual({ error: "La cuenta no existe" });
  });

  it("carries the caller's trace id through the edge and billing processes", async () => {
    const { accountId } = await stack.admin<{ accountId: string }>(
      "account",
      "create",
      "--name",
      "Trazas",
    );
    const { secret } = await stack.admin<{ secret: string }>(
      "key",
      "create",
      "--account",
      accountId,
      "--scope",
      "read_only",
    );
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const response = await cuenta(`Bearer ${secret}`, {
      traceparent: `00-${traceId}-b7ad6b7169203331-01`,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("traceparent")).toContain(traceId);
    await expect
      .poll(() =>
        stack
          .output()
          .split("\n")
          .some((l) => l.includes(traceId) && l.includes('"service":"billing"')),
      )
      .toBe(true);
    expect(stack.output()).not.toContain(secret);
  });
});
