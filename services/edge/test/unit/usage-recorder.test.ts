import { randomUUID } from "node:crypto";
import type { Bus } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { capturingLogger } from "@pasarela/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeUsageRecorder } from "../../src/http/usage.js";

type Published = { id: string; version: 1; llamadas: billing.UsageCall[] };

/** The stream as the recorder sees it: takes each event, or refuses while `down`. */
function stream() {
  const events: Published[] = [];
  const state = { down: false };
  const bus = {
    publish: (_event: unknown, body: Published) => {
      if (state.down) return Promise.reject(new Error("stream unavailable"));
      events.push(body);
      return Promise.resolve();
    },
  } as unknown as Pick<Bus, "publish">;
  return { bus, events, state, calls: () => events.flatMap((e) => e.llamadas.map((c) => c.id)) };
}

let clock = Date.parse("2026-11-22T12:00:00Z");
const call = (): billing.UsageCall => ({
  id: randomUUID(),
  accountId: randomUUID(),
  keyId: randomUUID(),
  at: new Date(clock++).toISOString(),
  method: "POST",
  route: "/api/wsfe/ultimo-comprobante",
  environment: "homologacion",
  representada: "20111111112",
  status: 200,
  code: null,
  latencyMs: 1.5,
  quotaConsumed: false,
});

describe("the usage recorder", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("publishes a full batch at once and the rest after flushMs, every call once", async () => {
    vi.useFakeTimers();
    const s = stream();
    const recorder = makeUsageRecorder(s.bus, capturingLogger().logger, {
      maxBatch: 3,
      flushMs: 50,
    });
    const sent = Array.from({ length: 7 }, call);
    for (const c of sent) recorder.record(c);
    await vi.advanceTimersByTimeAsync(0);
    expect(s.events.map((e) => e.llamadas.length)).toEqual([3, 3]);
    await vi.advanceTimersByTimeAsync(49);
    expect(s.events).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.events.map((e) => e.llamadas.length)).toEqual([3, 3, 1]);
    expect(s.calls()).toEqual(sent.map((c) => c.id));
    expect(new Set(s.events.map((e) => e.id)).size).toBe(3);
  });

  it("keeps what the stream refused and publishes it again once it takes events", async () => {
    vi.useFakeTimers();
    const s = stream();
    const { logger, lines } = capturingLogger();
    const recorder = makeUsageRecorder(s.bus, logger, { flushMs: 10, retryMs: 1_000 });
    s.state.down = true;
    const sent = [call(), call()];
    for (const c of sent) recorder.record(c);
    await vi.advanceTimersByTimeAsync(10);
    expect(s.events).toHaveLength(0);
    expect(lines.join("\n")).toContain("usage records not published");
    s.state.down = false;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(s.calls()).toEqual(sent.map((c) => c.id));
  });

  it("past maxBuffered drops the oldest calls and says how many", async () => {
    vi.useFakeTimers();
    const s = stream();
    const { logger, lines } = capturingLogger();
    const recorder = makeUsageRecorder(s.bus, logger, {
      maxBatch: 2,
      maxBuffered: 3,
      flushMs: 10,
      retryMs: 100,
    });
    s.state.down = true;
    const sent = Array.from({ length: 5 }, call);
    for (const c of sent) recorder.record(c);
    await vi.advanceTimersByTimeAsync(10);
    s.state.down = false;
    await vi.advanceTimersByTimeAsync(100);
    expect(s.calls().sort()).toEqual(
      sent
        .slice(2)
        .map((c) => c.id)
        .sort(),
    );
    expect(lines.join("\n")).toMatch(/"dropped":2.*usage records dropped/);
  });

  it("flush publishes what is buffered without waiting for the timer", async () => {
    const s = stream();
    const recorder = makeUsageRecorder(s.bus, capturingLogger().logger, { flushMs: 60_000 });
    const sent = [call(), call(), call()];
    for (const c of sent) recorder.record(c);
    await recorder.flush();
    expect(s.calls()).toEqual(sent.map((c) => c.id));
  });
});
