import { describe, expect, it } from "vitest";
import { makeSingleFlight } from "../../src/single-flight.js";

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("single flight", () => {
  it("shares one flight per key while it is out, and starts afresh once it settled", async () => {
    const flights = makeSingleFlight<string>();
    let started = 0;
    const work = deferred<string>();
    const start = () => {
      started++;
      return work.promise;
    };
    const first = flights.join("a", start);
    const second = flights.join("a", start);
    const other = flights.join("b", () => Promise.resolve("b"));
    expect([first.joined, second.joined, other.joined]).toEqual([false, true, false]);
    expect(second.flight).toBe(first.flight);
    work.resolve("x");
    expect(await second.flight).toBe("x");
    expect(await other.flight).toBe("b");
    const third = flights.join("a", () => Promise.resolve("y"));
    expect(third.joined).toBe(false);
    expect(await third.flight).toBe("y");
    expect(started).toBe(1);
  });

  it("forgets a key for later callers without cutting the flight under way short", async () => {
    const flights = makeSingleFlight<number>();
    const old = deferred<number>();
    const first = flights.join("k", () => old.promise);
    flights.forget("k");
    const later = deferred<number>();
    const fresh = flights.join("k", () => later.promise);
    expect(fresh.joined).toBe(false);
    const joinedFresh = flights.join("k", () => Promise.resolve(3));
    old.resolve(1);
    expect(await first.flight).toBe(1);
    // the old flight settling leaves the fresh one in place for its callers
    expect(flights.join("k", () => Promise.resolve(4)).joined).toBe(true);
    expect(joinedFresh.joined).toBe(true);
    later.resolve(2);
    expect(await joinedFresh.flight).toBe(2);
    flights.clear();
    expect(flights.join("k", () => Promise.resolve(5)).joined).toBe(false);
  });

  it("does not keep a failed flight", async () => {
    const flights = makeSingleFlight<number>();
    const failed = flights.join("k", () => Promise.reject(new Error("no")));
    await expect(failed.flight).rejects.toThrow("no");
    expect(flights.join("k", () => Promise.resolve(1)).joined).toBe(false);
  });
});
