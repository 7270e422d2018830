import { appError, fail, type Result } from "@pasarela/errors";
import type { SeriesKey, SeriesRepository } from "../db/repositories/series.js";

/** What a writer can do while it holds a series. */
export interface HeldSeries {
  /**
   * Extends the lease before the next authority call; false when it ran out and another
   * instance took the series, in which case nothing more may be sent.
   */
  renew(): Promise<boolean>;
}

export interface SeriesWriter {
  /**
   * Runs `work` as the series' only writer: after every earlier job of this process on the
   * series (an in-process queue) and while holding the series' lease (across instances).
   * When `deadline` (epoch ms) passes before the series is free, answers SERVICE_UNAVAILABLE
   * without running `work`: nothing was sent, numbering is unchanged.
   */
  run<T>(
    key: SeriesKey,
    deadline: number,
    work: (held: HeldSeries) => Promise<Result<T>>,
  ): Promise<Result<T>>;
}

export interface SeriesWriterOptions {
  series: Pick<SeriesRepository, "takeLease" | "renewLease" | "releaseLease">;
  /** this process: leases carry it so a restarted instance never mistakes another's for its own */
  owner: string;
  /**
   * How long a lease lasts without renewal. It is renewed before every authority call, so it
   * must outlast one call (AUTHORITY_TIMEOUT_MS) with room; a holder that dies blocks the
   * series for at most this long.
   */
  leaseMs: number;
  /** how often a waiter asks for a lease another instance holds */
  pollMs?: number;
  now?: () => number;
}

const keyOf = (k: SeriesKey) => `${k.environment}|${k.cuit}|${k.ptoVta}|${k.cbteTipo}`;

const busy = (key: SeriesKey) =>
  appError("SERVICE_UNAVAILABLE", {
    reason: "series busy",
    ptoVta: key.ptoVta,
    cbteTipo: key.cbteTipo,
  });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One writer per series (ARCHITECTURE §5.3; authority-ws.md §8.3): two issuances on one series
 * never race for a number. In this process a queue per series orders them; across instances a
 * lease on the series row does, taken and renewed with one short statement each (no
 * connection or transaction is held while the authority is called). The lease stays with this
 * process while its queue for the series is not empty, and is given back when it empties.
 */
export function makeSeriesWriter(options: SeriesWriterOptions): SeriesWriter {
  const { series, owner, leaseMs } = options;
  const pollMs = options.pollMs ?? 100;
  const now = options.now ?? Date.now;
  const queues = new Map<string, { tail: Promise<unknown>; jobs: number }>();

  async function acquire(key: SeriesKey, deadline: number): Promise<boolean> {
    for (;;) {
      if (await series.takeLease(key, owner, leaseMs)) return true;
      if (now() + pollMs >= deadline) return false;
      await sleep(pollMs);
    }
  }

  return {
    run(key, deadline, work) {
      const name = keyOf(key);
      let queue = queues.get(name);
      if (!queue) {
        queue = { tail: Promise.resolve(), jobs: 0 };
        queues.set(name, queue);
      }
      const mine = queue;
      mine.jobs++;
      const held: HeldSeries = { renew: () => series.renewLease(key, owner, leaseMs) };
      const job = mine.tail.then(async () => {
        try {
          if (now() >= deadline || !(await acquire(key, deadline))) return fail(busy(key));
          return await work(held);
        } finally {
          mine.jobs--;
        }
      });
      // The lease is given back inside the queue but off the caller's path: the answer (a CAE,
      // perhaps) goes out at once, and a job queued meanwhile runs after the release and takes
      // the lease again. A lease that cannot be given back runs out by itself.
      mine.tail = job
        .catch(() => undefined)
        .then(async () => {
          if (mine.jobs > 0) return;
          await series.releaseLease(key, owner).catch(() => undefined);
          if (mine.jobs === 0 && queues.get(name) === mine) queues.delete(name);
        });
      return job;
    },
  };
}
