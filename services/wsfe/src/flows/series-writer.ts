import { appError, fail, type Result } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { LeaseFence, SeriesKey, SeriesRepository } from "../db/repositories/series.js";

/** What a writer can do while it holds a series. */
export interface HeldSeries {
  /**
   * True while the lease is still this process's: answered from the last heartbeat when it is
   * recent, else renewed now. False once it ran out or another instance took the series:
   * nothing more may be sent.
   */
  renew(): Promise<boolean>;
  /**
   * The lease, for the statements that may only run while it holds (see LeaseFence), and
   * whether a FECAESolicitar may still start now. Absent where no other process can take the
   * series over (a writer of tests).
   */
  readonly fence?: (LeaseFence & { readonly mayStart: () => boolean }) | undefined;
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
   * How long a lease lasts without renewal: how long a holder that died blocks its series.
   * Short, since it no longer has to outlast an authority call: a heartbeat renews it.
   */
  leaseMs: number;
  /** how often a held lease is renewed, whatever the holder is doing (several times a lease) */
  heartbeatMs?: number;
  /** how often a waiter asks for a lease another instance holds */
  pollMs?: number;
  now?: () => number;
  logger?: Logger;
}

const keyOf = (k: SeriesKey) => `${k.environment}|${k.cuit}|${k.ptoVta}|${k.cbteTipo}`;

const busy = (key: SeriesKey) =>
  appError("SERVICE_UNAVAILABLE", {
    reason: "series busy",
    ptoVta: key.ptoVta,
    cbteTipo: key.cbteTipo,
  });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A lease this process holds, on the monotonic clock of the process. */
interface Holding {
  /** performance.now() before which the lease is certainly still ours */
  validUntil: number;
  /** performance.now() of the last renewal that got through */
  renewedAt: number;
  /** another instance took it: it is not ours any more, whatever the clock says */
  lost: boolean;
  heartbeat: NodeJS.Timeout;
  renewing: Promise<void> | undefined;
}

interface Queue {
  tail: Promise<unknown>;
  jobs: number;
  holding: Holding | undefined;
}

/**
 * One writer per series: two issuances on one series
 * never race for a number. In this process a queue per series orders them; across instances a
 * lease on the series row does, taken, renewed and given back with one short statement each
 * (no connection or transaction is held while the authority is called). The lease stays with
 * this process while its queue for the series is not empty, and is given back when it empties.
 *
 * While held, the lease is renewed every `heartbeatMs` on a timer of its own, independent of
 * what the jobs are waiting on, so it can be short: a holder that dies blocks its series for at
 * most `leaseMs`. Each renewal sets the expiry to the database's now() + `leaseMs`; that now()
 * is no earlier than the moment this process sent the statement, so the lease is certainly
 * ours until that moment + `leaseMs` on this process's own clock (only the clocks' rates are
 * assumed alike, never their settings). A holder whose renewals stop getting through (the
 * database unreachable, the process stalled) stops starting sends some time before that
 * point (fencing: `mayStart`); what it already sent is answered as it comes back, and any
 * outcome but an authorization is written only while the lease still holds (LeaseFence), so a
 * later holder reconciling the series finds everything the earlier one settled, or finds it
 * unsettled and settles it itself.
 */
export function makeSeriesWriter(options: SeriesWriterOptions): SeriesWriter {
  const { series, owner, leaseMs } = options;
  const heartbeatMs = options.heartbeatMs ?? Math.max(100, Math.floor(leaseMs / 5));
  const pollMs = options.pollMs ?? 100;
  const now = options.now ?? Date.now;
  // a send that starts this close to the end of the lease could reach the authority after it:
  // covers the gap between the check and the bytes leaving (a connection being opened)
  const startGuardMs = Math.min(1_000, leaseMs / 4);
  const queues = new Map<string, Queue>();

  const valid = (h: Holding | undefined, marginMs = 0): h is Holding =>
    h !== undefined && !h.lost && performance.now() + marginMs < h.validUntil;

  /** One renewal: extends the lease from the moment the statement left, or marks it lost. */
  function renewOnce(key: SeriesKey, h: Holding): Promise<void> {
    h.renewing ??= (async () => {
      const sentAt = performance.now();
      try {
        if (await series.renewLease(key, owner, leaseMs)) {
          h.validUntil = Math.max(h.validUntil, sentAt + leaseMs);
          h.renewedAt = sentAt;
        } else {
          h.lost = true;
          clearInterval(h.heartbeat);
          options.logger?.warn({ series: key }, "series lease taken over: no more sends");
        }
      } catch (error) {
        // the database did not answer: the lease runs down on its own, and sends stop first
        options.logger?.warn({ err: error, series: key }, "series lease not renewed");
      } finally {
        h.renewing = undefined;
      }
    })();
    return h.renewing;
  }

  function hold(key: SeriesKey, takenAt: number): Holding {
    const h: Holding = {
      validUntil: takenAt + leaseMs,
      renewedAt: takenAt,
      lost: false,
      heartbeat: setInterval(() => void renewOnce(key, h), heartbeatMs),
      renewing: undefined,
    };
    // a heartbeat never keeps a stopping process alive; the lease then runs out by itself
    h.heartbeat.unref();
    return h;
  }

  function letGo(queue: Queue): void {
    if (queue.holding) clearInterval(queue.holding.heartbeat);
    queue.holding = undefined;
  }

  async function acquire(key: SeriesKey, queue: Queue, deadline: number): Promise<boolean> {
    if (valid(queue.holding, startGuardMs)) return true;
    letGo(queue);
    for (;;) {
      const takenAt = performance.now();
      if (await series.takeLease(key, owner, leaseMs)) {
        queue.holding = hold(key, takenAt);
        return true;
      }
      if (now() + pollMs >= deadline) return false;
      await sleep(pollMs);
    }
  }

  function heldBy(key: SeriesKey, queue: Queue): HeldSeries {
    const h = queue.holding!;
    return {
      async renew() {
        if (h !== queue.holding || h.lost) return false;
        // a heartbeat went through lately: no round trip needed
        if (valid(h, startGuardMs) && performance.now() - h.renewedAt < 2 * heartbeatMs) {
          return true;
        }
        await renewOnce(key, h);
        return valid(h, startGuardMs);
      },
      fence: {
        series: key,
        owner,
        mayStart: () => h === queue.holding && valid(h, startGuardMs),
      },
    };
  }

  return {
    run(key, deadline, work) {
      const name = keyOf(key);
      let queue = queues.get(name);
      if (!queue) {
        queue = { tail: Promise.resolve(), jobs: 0, holding: undefined };
        queues.set(name, queue);
      }
      const mine = queue;
      mine.jobs++;
      const job = mine.tail.then(async () => {
        try {
          if (now() >= deadline || !(await acquire(key, mine, deadline))) return fail(busy(key));
          return await work(heldBy(key, mine));
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
          letGo(mine);
          await series.releaseLease(key, owner).catch(() => undefined);
          if (mine.jobs === 0 && queues.get(name) === mine) queues.delete(name);
        });
      return job;
    },
  };
}
