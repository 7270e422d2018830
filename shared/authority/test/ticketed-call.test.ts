import { appError, ok } from "@pasarela/errors";
import { describe, expect, it } from "vitest";
import {
  withAccessTicket,
  type AccessTicket,
  type AccessTicketCache,
  type AccessTicketRequest,
} from "../src/index.js";

const ticketNumber = (n: number): AccessTicket => ({
  token: `token-${n}`,
  sign: "sign",
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  certificateNotAfter: new Date(Date.now() + 86_400_000).toISOString(),
  cuit: "20111111112",
});

/** A cache that hands out token-1, token-2, … and records what each `get` asked for. */
function recordingTickets() {
  const asked: AccessTicketRequest[] = [];
  const cache: AccessTicketCache = {
    get: (_a, _c, _e, _s, request = {}) => {
      asked.push(request);
      return Promise.resolve(ok(ticketNumber(asked.length)));
    },
    invalidate: () => undefined,
    clear: () => undefined,
  };
  return { cache, asked };
}

const key = {
  accountId: "a",
  cuit: "20111111112",
  environment: "homologacion" as const,
  service: "wsfe" as const,
};
const stale = { kind: "stale-ticket" as const, error: appError("AUTHORITY_UNAVAILABLE") };

describe("a call with an access ticket", () => {
  it("reports the refused ticket when it asks for another, and gives up after the second", async () => {
    const { cache, asked } = recordingTickets();
    const used: string[] = [];
    const result = await withAccessTicket(cache, key, (ticket) => {
      used.push(ticket.token);
      return Promise.resolve(stale);
    });
    expect(result.ok || result.error.code).toBe("AUTHORITY_UNAVAILABLE");
    expect(used).toEqual(["token-1", "token-2"]);
    expect(asked.map((r) => r.rejected?.token)).toEqual([undefined, "token-1"]);
  });

  it("gives the call what is left of the deadline, less the margin for its answer", async () => {
    const { cache, asked } = recordingTickets();
    const deadline = Date.now() + 5_000;
    let given: number | undefined;
    const result = await withAccessTicket(cache, { ...key, deadline }, (_ticket, timeoutMs) => {
      given = timeoutMs;
      return Promise.resolve({ kind: "done" as const, result: ok(1) });
    });
    expect(result).toEqual({ ok: true, value: 1 });
    expect(given).toBeGreaterThan(0);
    expect(given).toBeLessThanOrEqual(4_000);
    expect(asked[0]?.deadline).toBe(deadline);
  });

  it("answers 502 naming the service and WSAA without calling when the ticket used up the time", async () => {
    const { cache } = recordingTickets();
    let called = false;
    const result = await withAccessTicket(cache, { ...key, deadline: Date.now() + 1_000 }, () => {
      called = true;
      return Promise.resolve({ kind: "done" as const, result: ok(1) });
    });
    expect(called).toBe(false);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("AUTHORITY_UNAVAILABLE");
    expect(result.error.message).toContain("WSFE no fue consultado");
    expect(result.error.message).toContain("WSAA");
  });

  it("leaves the call its own timeout when the caller set no deadline", async () => {
    const { cache } = recordingTickets();
    let given: number | undefined = -1;
    await withAccessTicket(cache, key, (_ticket, timeoutMs) => {
      given = timeoutMs;
      return Promise.resolve({ kind: "done" as const, result: ok(1) });
    });
    expect(given).toBeUndefined();
  });
});
