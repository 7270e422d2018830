import { connectBus, type Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { createLogger, startTracing } from "@pasarela/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startE2EStack, type E2EStack } from "../support/stack.js";

describe("the edge as a hostile caller sees it, over real processes", () => {
  let stack: E2EStack;
  /** the operator's own NATS client (what `npm run admin` does), for many keys quickly */
  let operator: Bus;

  beforeAll(async () => {
    stack = await startE2EStack({ env: { LOG_LEVEL: "info" } });
    operator = await connectBus({
      url: stack.env.NATS_URL!,
      prefix: stack.env.NATS_PREFIX,
      name: "e2e-operator",
      logger: createLogger({ service: "e2e-operator", level: "silent" }),
      tracer: startTracing({ service: "e2e-operator" }).tracer,
    });
  });

  afterAll(async () => {
    await operator?.close();
    await stack?.teardown();
  });

  const cuenta = (authorization: string) =>
    fetch(`${stack.edgeUrl}/api/cuenta`, { headers: { authorization } });

  it("never authenticates a key once its revocation has been answered, however verifications race it", async () => {
    const account = await operator.request(billing.accountCreate, { name: "Revocaciones" });
    if (!account.ok) throw new Error(account.error.message);
    for (let trial = 0; trial < 40; trial++) {
      const key = await operator.request(billing.keyCreate, {
        accountId: account.value.accountId,
        scope: "read_write",
      });
      if (!key.ok) throw new Error(key.error.message);
      const authorization = `Bearer ${key.value.secret}`;
      // uncached verifications at billing, in flight while the key is revoked: an answer
      // computed before the revocation may reach the edge after its event
      const racing = Array.from({ length: 4 }, () => cuenta(authorization));
      const revoked = await operator.request(billing.keyRevoke, { keyId: key.value.keyId });
      expect(revoked.ok).toBe(true);
      await Promise.all(racing);
      for (let after = 0; after < 3; after++) {
        const response = await cuenta(authorization);
        expect(response.status, `trial ${trial}`).toBe(401);
        expect(await response.text()).toBe('{"error":"No autorizado"}');
      }
    }
  });
});
