import type { Bus } from "@pasarela/bus";
import { appError, fail, ok, type Result } from "@pasarela/errors";
import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { makeAuthenticate } from "../../src/auth/authenticate.js";
import { makeKeyCache, type Principal } from "../../src/auth/key-cache.js";
import { EdgeError } from "../../src/http/edge-error.js";

// A stand-in for billing.key.verify whose answers the test releases one by one, so the
// interplay of an answer on its way and a revocation event is played in a fixed order.
function heldBilling() {
  const pending: ((answer: Result<Principal>) => void)[] = [];
  const bus = {
    request: () => new Promise<Result<Principal>>((resolve) => pending.push(resolve)),
  } as unknown as Pick<Bus, "request">;
  return {
    bus,
    /** how many times billing was asked */
    asked: () => pending.length,
    answer: (n: number, result: Result<Principal>) => pending[n]!(result),
  };
}

const key: Principal = {
  keyId: "6f1c1f4e-0b6a-4e43-9b3f-3f1d0b8a7c11",
  accountId: "a",
  scope: "read_write",
};
const other: Principal = { ...key, keyId: "0d7e2b8a-3c1f-4f5e-8a9b-1c2d3e4f5a6b" };
const secret = "pas_0123456789ab_secret";
const request = () =>
  ({
    id: "r",
    headers: { authorization: `Bearer ${secret}` },
    routeOptions: { config: {} },
  }) as unknown as FastifyRequest;
const refusal = async (attempt: Promise<void>) => {
  try {
    await attempt;
    return undefined;
  } catch (error) {
    return error instanceof EdgeError ? error.appError.code : error;
  }
};
/** lets the awaited answer reach the authentication before the next step */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("key cache: a verification never caches a key revoked after it started", () => {
  it("refuses and does not cache a key whose revocation arrives while billing's answer is on its way", async () => {
    const billing = heldBilling();
    const cache = makeKeyCache(300_000);
    const authenticate = makeAuthenticate(billing.bus, cache);

    const first = authenticate(request());
    await settle();
    expect(billing.asked()).toBe(1);
    cache.revoke(key.keyId); // the event overtakes billing's answer
    billing.answer(0, ok(key)); // computed before the revocation
    expect(await refusal(first)).toBe("UNAUTHORIZED");

    // nothing was cached: the next request asks billing again, which now knows
    const second = authenticate(request());
    await settle();
    expect(billing.asked()).toBe(2);
    billing.answer(1, fail(appError("UNAUTHORIZED")));
    expect(await refusal(second)).toBe("UNAUTHORIZED");
  });

  it("still caches a key when only another key was revoked meanwhile", async () => {
    const billing = heldBilling();
    const cache = makeKeyCache(300_000);
    const authenticate = makeAuthenticate(billing.bus, cache);
    const first = authenticate(request());
    await settle();
    cache.revoke(other.keyId);
    billing.answer(0, ok(key));
    expect(await refusal(first)).toBeUndefined();
    expect(await refusal(authenticate(request()))).toBeUndefined();
    expect(billing.asked()).toBe(1);
  });

  it("authenticates but does not cache an answer in flight across a clear (events may be lost)", async () => {
    const billing = heldBilling();
    const cache = makeKeyCache(300_000);
    const authenticate = makeAuthenticate(billing.bus, cache);
    const first = authenticate(request());
    await settle();
    cache.clear();
    billing.answer(0, ok(key));
    expect(await refusal(first)).toBeUndefined();
    const second = authenticate(request());
    await settle();
    expect(billing.asked()).toBe(2);
    billing.answer(1, ok(key));
    expect(await refusal(second)).toBeUndefined();
  });

  it("drops a cached key on its revocation, and caches nothing billing refused", async () => {
    const billing = heldBilling();
    const cache = makeKeyCache(300_000);
    const authenticate = makeAuthenticate(billing.bus, cache);
    const first = authenticate(request());
    await settle();
    billing.answer(0, fail(appError("SERVICE_UNAVAILABLE")));
    expect(await refusal(first)).toBe("SERVICE_UNAVAILABLE");
    const second = authenticate(request());
    await settle();
    billing.answer(1, ok(key));
    expect(await refusal(second)).toBeUndefined();
    expect(await refusal(authenticate(request()))).toBeUndefined();
    expect(billing.asked()).toBe(2);
    cache.revoke(key.keyId);
    const third = authenticate(request());
    await settle();
    expect(billing.asked()).toBe(3);
    billing.answer(2, fail(appError("UNAUTHORIZED")));
    expect(await refusal(third)).toBe("UNAUTHORIZED");
  });
});
