import { describe, expect, it } from "vitest";
import { capClearsAt, periodAt } from "../../src/domain/period.js";

const at = (iso: string) => new Date(iso);

describe("billing periods", () => {
  it("are anchored on the account's start day, clamped to shorter months", () => {
    const anchor = at("2026-01-31T10:00:00Z");
    expect(periodAt(anchor, 1, at("2026-02-15T00:00:00Z"))).toEqual({
      start: at("2026-01-31T10:00:00Z"),
      end: at("2026-02-28T10:00:00Z"),
    });
    expect(periodAt(anchor, 1, at("2026-03-30T00:00:00Z")).start).toEqual(
      at("2026-02-28T10:00:00Z"),
    );
    expect(periodAt(anchor, 1, at("2026-03-31T10:00:00Z")).start).toEqual(
      at("2026-03-31T10:00:00Z"),
    );
  });

  it("a quarterly plan runs three months", () => {
    const period = periodAt(at("2026-01-10T00:00:00Z"), 3, at("2026-05-01T00:00:00Z"));
    expect(period).toEqual({ start: at("2026-04-10T00:00:00Z"), end: at("2026-07-10T00:00:00Z") });
  });
});

describe("the rejection cap", () => {
  const times = ["12:00", "12:10", "12:20"].map((t) => at(`2026-11-22T${t}:00Z`));

  it("is not reached below the cap", () => {
    expect(capClearsAt(times, 4)).toBeUndefined();
  });

  it("clears when enough of the window's rejections are an hour old", () => {
    expect(capClearsAt(times, 3)).toEqual(at("2026-11-22T13:00:00Z"));
    expect(capClearsAt(times, 2)).toEqual(at("2026-11-22T13:10:00Z"));
  });
});
