import { connectBus, type Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, startBilling } from "../src/index.js";

describe("billing: accounts and API keys", () => {
  let infra: FileInfra;
  let client: Bus;
  let stop: () => Promise<void>;
  const { logger, lines } = capturingLogger("billing");

  beforeAll(async () => {
    infra = await fileInfra();
    const config = loadConfig({
      NATS_URL: infra.natsUrl,
      NATS_PREFIX: infra.prefix,
      DATABASE_URL: infra.databaseUrl,
      CURSOR_KEY: "Y3Vyc29yLXRlc3Qta2V5LWN1cnNvci10ZXN0LWtleSE=",
      API_KEY_PEPPER: "test-pepper-test-pepper-test-pepper-0123",
    });
    const service = await startBilling(config, logger);
    stop = service.stop;
    client = await connectBus({
      url: infra.natsUrl,
      prefix: infra.prefix,
      name: "test",
      logger,
      tracer: startTracing({ service: "test" }).tracer,
    });
  });

  afterAll(async () => {
    await client?.close();
    await stop?.();
    await infra?.cleanup();
  });

  async function newKey(scope: "read_only" | "read_write" = "read_write") {
    const account = await client.request(billing.accountCreate, { name: "Comercio SA" });
    if (!account.ok) throw new Error(account.error.message);
    const key = await client.request(billing.keyCreate, {
      accountId: account.value.accountId,
      scope,
    });
    if (!key.ok) throw new Error(key.error.message);
    return { accountId: account.value.accountId, ...key.value };
  }

  it("verifies a fresh secret, answering account and scope", async () => {
    const key = await newKey("read_only");
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    const verified = await client.request(billing.keyVerify, { secret: key.secret });
    expect(verified).toEqual({
      ok: true,
      value: { keyId: key.keyId, accountId: key.accountId, scope: "read_only" },
    });
  });

  it("refuses the prefix alone, a wrong secret and garbage alike", async () => {
    const key = await newKey();
    const wrong = key.secret.slice(0, -1) + (key.secret.endsWith("A") ? "B" : "A");
    for (const secret of [key.prefix, wrong, "nonsense", ""]) {
      const verified = await client.request(billing.keyVerify, { secret });
      expect(verified).toEqual({
        ok: false,
        error: { code: "UNAUTHORIZED", message: "No autorizado" },
      });
    }
  });

  it("stops verifying a revoked key and announces the revocation", async () => {
    const key = await newKey();
    const seen: string[] = [];
    const subscription = client.listen(billing.keyRevoked, (event) => {
      seen.push(event.keyId);
    });
    await client.connection.flush();
    const revoked = await client.request(billing.keyRevoke, { keyId: key.keyId });
    expect(revoked.ok && revoked.value.revoked).toBe(true);
    const verified = await client.request(billing.keyVerify, { secret: key.secret });
    expect(verified.ok).toBe(false);
    await expect.poll(() => seen).toContain(key.keyId);
    subscription.unsubscribe();
  });

  it("lists keys with prefix, scope and dates, never a secret or hash", async () => {
    const key = await newKey();
    const listed = await client.request(billing.keyList, { accountId: key.accountId });
    expect(listed.ok).toBe(true);
    if (!listed.ok) return;
    expect(listed.value.keys).toHaveLength(1);
    const [only] = listed.value.keys;
    expect(Object.keys(only!).sort()).toEqual([
      "createdAt",
      "keyId",
      "lastUsedAt",
      "prefix",
      "revokedAt",
      "scope",
    ]);
    expect(JSON.stringify(listed.value)).not.toContain(key.secret);
  });

  it("answers ACCOUNT_NOT_FOUND and KEY_NOT_FOUND for unknown ids", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const created = await client.request(billing.keyCreate, { accountId: id, scope: "read_only" });
    expect(!created.ok && created.error.code).toBe("ACCOUNT_NOT_FOUND");
    const revoked = await client.request(billing.keyRevoke, { keyId: id });
    expect(!revoked.ok && revoked.error.code).toBe("KEY_NOT_FOUND");
  });

  it("keeps no secret in clear in the database or the logs", async () => {
    const key = await newKey();
    const sql = postgres(infra.databaseUrl, { max: 1 });
    try {
      const rows = await sql`select * from billing.api_keys`;
      const dump = JSON.stringify(rows, (_k, v: unknown) =>
        v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v,
      );
      const secretPart = key.secret.slice(key.prefix.length + 1);
      expect(dump).not.toContain(secretPart);
      expect(dump).not.toContain(Buffer.from(key.secret).toString("hex"));
    } finally {
      await sql.end();
    }
    expect(lines.join("")).not.toContain(key.secret);
  });
});
