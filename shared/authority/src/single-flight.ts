/**
 * In-flight de-duplication (single flight): callers asking for the same key while a piece of
 * work for it is under way share that work's promise instead of starting another. The flight
 * is forgotten when it settles, so the next caller starts afresh; nothing is cached here.
 */
export interface SingleFlight<T> {
  /**
   * The flight under `key`: the one under way (`joined`), or the one `start` begins now.
   * `start` runs only when no flight for `key` is out.
   */
  join: (
    key: string,
    start: () => Promise<T>,
  ) => { readonly flight: Promise<T>; readonly joined: boolean };
  /** Later callers of `key` start afresh; a flight under way still answers its own callers. */
  forget: (key: string) => void;
  /** `forget` for every key. */
  clear: () => void;
}

export function makeSingleFlight<T>(): SingleFlight<T> {
  const flights = new Map<string, Promise<T>>();
  return {
    join(key, start) {
      const current = flights.get(key);
      if (current) return { flight: current, joined: true };
      const flight = start().finally(() => {
        // a flight forgotten and replaced meanwhile is not this one's to remove
        if (flights.get(key) === flight) flights.delete(key);
      });
      flights.set(key, flight);
      return { flight, joined: false };
    },
    forget: (key) => flights.delete(key),
    clear: () => flights.clear(),
  };
}
