import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmRun } from "../support/cli.js";
import { laggingConsumers, scrapeMetrics } from "../support/prometheus.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

// The whole stack on a NATS server that grants each process only its subjects (deploy/nats):
// every service and the operator CLI connect with their own user.
describe("e2e: the stack under least-privilege NATS", () => {
  let stack: E2EStack;

  beforeAll(async () => {
    stack = await startE2EStack({ withNatsGrants: true });
  });
  afterAll(async () => {
    await stack?.teardown();
  });

  const cliAs = (env: Record<string, string>) =>
    npmRun("admin", ["account", "create", "--name", "Intrusa"], {
      NATS_URL: stack.env.NATS_URL!,
      NATS_PREFIX: stack.env.NATS_PREFIX ?? "",
      ...env,
    });

  it("is ready with every service answering its health subject", async () => {
    const ready = (await (await fetch(`${stack.edgeUrl}/readyz`)).json()) as {
      ready: boolean;
      services: Record<string, boolean>;
    };
    expect(ready.ready).toBe(true);
    expect(Object.values(ready.services).every(Boolean)).toBe(true);
  });

  it("reads each durable consumer's lag with no grant beyond the consumer's own", async () => {
    // a refused read leaves no sample: every consumer present is one the grant let through
    expect(laggingConsumers(await scrapeMetrics(stack.metricsUrls.mail!, "mail"))).toEqual([
      "mail on MAIL_JOBS",
      "mail on MAIL_MENSAJES",
      "mail-emision on EVENTS",
    ]);
    expect(laggingConsumers(await scrapeMetrics(stack.metricsUrls.billing!, "billing"))).toEqual([
      "billing-cobros on EVENTS",
      "billing-comprobantes on EVENTS",
      "billing-emisiones on EVENTS",
      "billing-uso on EVENTS",
    ]);
  });

  it("lets the operator create an account and a key that the edge then verifies and forgets on revocation", async () => {
    const { accountId } = await stack.admin<{ accountId: string }>(
      "account",
      "create",
      "--name",
      "Con permisos",
    );
    const key = await stack.admin<{ keyId: string; secret: string }>(
      "key",
      "create",
      "--account",
      accountId,
      "--scope",
      "read_write",
    );
    const authorization = `Bearer ${key.secret}`;
    const cuenta = await fetch(`${stack.edgeUrl}/api/cuenta`, { headers: { authorization } });
    expect(cuenta.status).toBe(200);
    await stack.admin("key", "revoke", "--key", key.keyId);
    // the revocation event reaches the edge's cache or the verification refuses the key
    const after = await fetch(`${stack.edgeUrl}/api/cuenta`, { headers: { authorization } });
    expect(after.status).toBe(401);
  });

  it("refuses account creation to the edge's identity, and any connection without one", async () => {
    const asEdge = await cliAs({ NATS_USER: "edge", NATS_PASSWORD: stack.natsPasswords!.edge });
    expect(asEdge.code).not.toBe(0);
    expect(asEdge.stderr).toContain("Servicio momentáneamente no disponible");
    const anonymous = await cliAs({});
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.stderr).toMatch(/Authorization Violation/);
  });
});
