import { describe, expect, it } from "vitest";
import { defaultSupervision, restartDelay } from "../src/index.js";

describe("restart backoff", () => {
  it("doubles from the initial delay for each crash in a row and stops at the cap", () => {
    const supervision = { initialDelayMs: 250, maxDelayMs: 3_000, stableAfterMs: 30_000 };
    expect([0, 1, 2, 3, 4, 5, 20].map((n) => restartDelay(n, supervision))).toEqual([
      250, 500, 1_000, 2_000, 3_000, 3_000, 3_000,
    ]);
  });

  it("never waits longer than the default cap", () => {
    expect(restartDelay(1_000, defaultSupervision)).toBe(defaultSupervision.maxDelayMs);
  });
});
