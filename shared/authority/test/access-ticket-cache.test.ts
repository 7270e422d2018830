import type { Bus } from "@pasarela/bus";
import { ticket } from "@pasarela/contracts";
import { appError, fail, ok, type Result } from "@pasarela/errors";
import { describe, expect, it } from "vitest";
import {
  followCertificateChanges,
  makeAccessTicketCache,
  type AccessTicket,
} from "../src/index.js";

const ACCOUNT = "7f1c1d0e-3a51-4b9b-9a1e-0d6b7b2e3f40";
const HOUR = 3600_000;

function fakeBus(answer: () => Result<AccessTicket>, delayMs = 5) {
  const calls: { body: unknown; accountId: string | undefined }[] = [];
  const bus = {
    request: async (_contract: unknown, body: unknown, options?: { accountId?: string }) => {
      calls.push({ body, accountId: options?.accountId });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return answer();
    },
  } as unknown as Pick<Bus, "request">;
  return { bus, calls };
}

const ticketExpiringIn = (
  ms: number,
  at: number,
  certificateNotAfter = at + 365 * 24 * HOUR,
): AccessTicket => ({
  token: "VE9LRU4=",
  sign: "U0lHTg==",
  expiresAt: new Date(at + ms).toISOString(),
  certificateNotAfter: new Date(certificateNotAfter).toISOString(),
  cuit: "20111111112",
});

describe("caller-side access-ticket cache", () => {
  it("asks ticket once for many concurrent callers and then answers from memory", async () => {
    const now = Date.now();
    const { bus, calls } = fakeBus(() => ok(ticketExpiringIn(12 * HOUR, now)));
    const cache = makeAccessTicketCache(bus, { now: () => now });
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe")),
    );
    expect(answers.every((a) => a.ok && a.value.token === "VE9LRU4=")).toBe(true);
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    expect(calls).toEqual([
      {
        body: { cuit: "20111111112", environment: "homologacion", service: "wsfe" },
        accountId: ACCOUNT,
      },
    ]);
  });

  it("keeps services, environments and accounts apart", async () => {
    const now = Date.now();
    const { bus, calls } = fakeBus(() => ok(ticketExpiringIn(12 * HOUR, now)));
    const cache = makeAccessTicketCache(bus, { now: () => now });
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfex");
    await cache.get(ACCOUNT, "20111111112", "produccion", "wsfe");
    await cache.get("00000000-0000-4000-8000-000000000000", "20111111112", "homologacion", "wsfe");
    expect(calls).toHaveLength(4);
  });

  it("asks again once the ticket enters the refresh window", async () => {
    let now = Date.now();
    const issuedAt = now;
    const { bus, calls } = fakeBus(() => ok(ticketExpiringIn(12 * HOUR, issuedAt)));
    const cache = makeAccessTicketCache(bus, { now: () => now, refreshAheadMs: 120_000 });
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    now = issuedAt + 12 * HOUR - 121_000;
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    expect(calls).toHaveLength(1);
    now = issuedAt + 12 * HOUR - 119_000;
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    expect(calls).toHaveLength(2);
  });

  it("reuses a near-expiry ticket briefly instead of asking on every call", async () => {
    let now = Date.now();
    const issuedAt = now;
    const { bus, calls } = fakeBus(() => ok(ticketExpiringIn(90_000, issuedAt)));
    const cache = makeAccessTicketCache(bus, {
      now: () => now,
      refreshAheadMs: 120_000,
      nearExpiryHoldMs: 30_000,
    });
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    now += 29_000;
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    expect(calls).toHaveLength(1);
    now += 2_000;
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    expect(calls).toHaveLength(2);
  });

  it("never caches a failure", async () => {
    const { bus, calls } = fakeBus(() => fail(appError("NO_ACTIVE_CERTIFICATE")));
    const cache = makeAccessTicketCache(bus);
    const first = await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    const second = await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    expect(!first.ok && first.error.code).toBe("NO_ACTIVE_CERTIFICATE");
    expect(second.ok).toBe(false);
    expect(calls).toHaveLength(2);
  });

  it("forgets an invalidated entry", async () => {
    const now = Date.now();
    const { bus, calls } = fakeBus(() => ok(ticketExpiringIn(12 * HOUR, now)));
    const cache = makeAccessTicketCache(bus, { now: () => now });
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    cache.invalidate(ACCOUNT, "20111111112", "homologacion", "wsfe");
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    expect(calls).toHaveLength(2);
  });

  it("asks ticket to replace a refused ticket instead of answering it from memory", async () => {
    const now = Date.now();
    const { bus, calls } = fakeBus(() => ok(ticketExpiringIn(12 * HOUR, now)));
    const cache = makeAccessTicketCache(bus, { now: () => now });
    const first = await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    if (!first.ok) throw new Error("no ticket");
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe", { rejected: first.value });
    expect(calls.map((c) => c.body)).toEqual([
      { cuit: "20111111112", environment: "homologacion", service: "wsfe" },
      {
        cuit: "20111111112",
        environment: "homologacion",
        service: "wsfe",
        rejectedToken: ticket.accessTokenDigest(first.value.token),
      },
    ]);
  });

  it("keeps a ticket no longer than its certificate is valid", async () => {
    let now = Date.now();
    const issuedAt = now;
    const { bus, calls } = fakeBus(() =>
      ok(ticketExpiringIn(12 * HOUR, issuedAt, issuedAt + HOUR)),
    );
    const cache = makeAccessTicketCache(bus, { now: () => now });
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    now = issuedAt + HOUR - 1_000;
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    expect(calls).toHaveLength(1);
    now = issuedAt + HOUR;
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    expect(calls).toHaveLength(2);
  });

  it("does not keep an answer whose request left before the entry was invalidated", async () => {
    const now = Date.now();
    const { bus, calls } = fakeBus(() => ok(ticketExpiringIn(12 * HOUR, now)), 20);
    const cache = makeAccessTicketCache(bus, { now: () => now });
    const before = cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    cache.invalidate(ACCOUNT, "20111111112", "homologacion", "wsfe");
    expect((await before).ok).toBe(true);
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
    expect(calls).toHaveLength(2);
  });

  it("drops a representada's tickets on a certificate change and everything on a reconnection", async () => {
    const now = Date.now();
    const { bus, calls } = fakeBus(() => ok(ticketExpiringIn(12 * HOUR, now)));
    const cache = makeAccessTicketCache(bus, { now: () => now });
    let onEvent: ((body: unknown) => void) | undefined;
    let onReconnect: (() => void) | undefined;
    const events = {
      listen: (_event: unknown, handler: (body: unknown) => void) => {
        onEvent = handler;
        return { unsubscribe: () => undefined };
      },
      onReconnect: (callback: () => void) => {
        onReconnect = callback;
      },
    } as unknown as Pick<Bus, "listen" | "onReconnect">;
    followCertificateChanges(events, cache);
    const other = "00000000-0000-4000-8000-000000000000";
    const both = async () => {
      await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfe");
      await cache.get(ACCOUNT, "20111111112", "homologacion", "wsfex");
      await cache.get(other, "20111111112", "homologacion", "wsfe");
    };
    await both();
    expect(calls).toHaveLength(3);
    onEvent!({
      id: "certificado-activado-x",
      version: 1,
      representadaId: other,
      accountId: ACCOUNT,
      cuit: "20111111112",
      environment: "homologacion",
      fingerprint: "ab",
      notAfter: new Date(now + HOUR).toISOString(),
      activatedAt: new Date(now).toISOString(),
    });
    await both();
    // wsfe and wsfex of that account's representada asked again; the other account did not
    expect(calls).toHaveLength(5);
    onReconnect!();
    await both();
    expect(calls).toHaveLength(8);
  });
});
