import { createInbox, type Msg, type MsgHdrs, type NatsConnection } from "@nats-io/nats-core";

/**
 * Request/reply that tells a slow answer from a responder that died.
 *
 * A NATS request to a process that was killed just times out: the caller waits its whole
 * deadline (a minute on authority subjects) for a reply that cannot come. So while a handler
 * runs, its process sends a progress message to the reply inbox every `progressIntervalMs`,
 * and the requester gives up on a responder it has heard nothing from for `silenceTimeoutMs`,
 * besides the request's own deadline. The first progress message leaves only after one
 * interval of work: a request answered faster costs one timer set and cleared, nothing on the
 * wire.
 *
 * Silence is only heard when the event loop of the responder's process is stuck as well: a
 * handler that computes for seconds without yielding (signing with a large key, say) falls
 * silent too. So only subjects whose contract says what to do about a silent responder
 * (`onSilence`: queries, issuance) are cut short by it; the others wait out their deadline.
 *
 * A progress message is an empty payload without headers. Every reply is a JSON document, and
 * the server's "no responders" status is empty but carries a 503 status header, so the three
 * never mix. Only request/reply core features are used (a wildcard inbox subscription and
 * publishes with a reply subject), nothing a NATS 2.9 server lacks.
 */
export interface Liveness {
  /** a responder says it is still working this often while a handler runs */
  readonly progressIntervalMs: number;
  /** a requester that hears nothing for this long takes its responder for dead */
  readonly silenceTimeoutMs: number;
}

/**
 * A death is noticed at most 2 s after it (the last sign of life came at the latest when the
 * process died), so a query asked again of another instance is answered within about 3 s of
 * the death; a responder must stall for 1.25 s beyond a period before it is taken for dead.
 */
export const defaultLiveness: Liveness = { progressIntervalMs: 750, silenceTimeoutMs: 2_000 };

/**
 * The silence allowed must cover at least two progress periods: one late message (a garbage
 * collection, a busy machine) must not read as a death.
 */
export function checkLiveness(liveness: Liveness): Liveness {
  if (liveness.progressIntervalMs < 50) {
    throw new Error(`the progress interval (${liveness.progressIntervalMs} ms) is below 50 ms`);
  }
  if (liveness.silenceTimeoutMs < 2 * liveness.progressIntervalMs) {
    throw new Error(
      `the silence timeout (${liveness.silenceTimeoutMs} ms) must be at least twice the progress interval (${liveness.progressIntervalMs} ms)`,
    );
  }
  return liveness;
}

const EMPTY = new Uint8Array(0);

/**
 * Responder side: progress messages to the request's reply inbox until the returned function
 * is called (right before the reply is sent). A request without a reply subject gets none.
 */
export function keepRequesterInformed(msg: Msg, intervalMs: number): () => void {
  if (!msg.reply) return () => {};
  const timer = setInterval(() => {
    try {
      msg.respond(EMPTY);
    } catch {
      // a closed or draining connection: the reply will not get through either
    }
  }, intervalMs);
  // a progress timer never keeps a stopping process alive
  timer.unref();
  return () => clearInterval(timer);
}

/** What came of one request sent through the mux. */
export type Exchange =
  | { readonly kind: "reply"; readonly msg: Msg }
  | { readonly kind: "timeout" }
  /** the responder stopped sending progress before the deadline: it died or hangs */
  | { readonly kind: "silent" }
  | { readonly kind: "no-responders" }
  /** the server refused the publish or the inbox (permissions), or the client could not send */
  | { readonly kind: "refused"; readonly error: unknown };

export interface ReplyMux {
  /**
   * Publishes `data` to `subject` and settles with its reply, or with why none came: the
   * deadline (`timeoutMs`) passed, or (when `watchSilence`) the responder fell silent for the
   * silence timeout. `abandon` forgets the request (its reply, if any, is dropped).
   */
  request(
    subject: string,
    data: Uint8Array,
    headers: MsgHdrs,
    timeoutMs: number,
    watchSilence: boolean,
  ): { done: Promise<Exchange>; abandon: () => void };
  /** The server refused a publish to `subject`: the requests waiting on it fail now. */
  publishRefused(subject: string, error: unknown): void;
}

interface Pending {
  readonly subject: string;
  /** performance.now() of the last sign of life: the publish, then each progress message */
  heard: number;
  settle(exchange: Exchange): void;
}

/**
 * One subscription on a private inbox (`<inboxPrefix>.<random>.*`) for every request of the
 * process, each told apart by the token after the last dot, as the client's own requests are.
 * One timer per request: it fires at the earlier of the deadline and the end of the allowed
 * silence, and progress messages only move a timestamp.
 */
export function makeReplyMux(
  connection: NatsConnection,
  inboxPrefix: string | undefined,
  silenceTimeoutMs: number,
): ReplyMux {
  const pending = new Map<string, Pending>();
  let base = "";
  let subscribed = false;
  let next = 0;

  function subscribe(): void {
    base = `${createInbox(inboxPrefix)}.`;
    connection.subscribe(`${base}*`, {
      callback: (error, msg) => {
        if (error) {
          // the inbox itself was refused: nothing can come back to any request
          for (const p of [...pending.values()]) p.settle({ kind: "refused", error });
          subscribed = false;
          return;
        }
        const p = pending.get(msg.subject.slice(base.length));
        if (!p) return;
        if (msg.data.length === 0) {
          if (msg.headers?.code === 503) p.settle({ kind: "no-responders" });
          else p.heard = performance.now();
          return;
        }
        p.settle({ kind: "reply", msg });
      },
    });
    subscribed = true;
  }

  return {
    request(subject, data, headers, timeoutMs, watchSilence) {
      if (!subscribed) subscribe();
      const silenceMs = watchSilence ? silenceTimeoutMs : Infinity;
      const token = (next++).toString(36);
      const started = performance.now();
      const end = started + timeoutMs;
      let timer: NodeJS.Timeout | undefined;
      let settle!: (exchange: Exchange) => void;
      const done = new Promise<Exchange>((resolve) => {
        settle = (exchange) => {
          if (!pending.delete(token)) return;
          clearTimeout(timer);
          resolve(exchange);
        };
      });
      const entry: Pending = { subject, heard: started, settle };
      pending.set(token, entry);

      const check = (): void => {
        if (!pending.has(token)) return;
        const now = performance.now();
        if (now >= end) return settle({ kind: "timeout" });
        if (now - entry.heard < silenceMs) {
          timer = setTimeout(check, Math.min(end, entry.heard + silenceMs) - now);
          return;
        }
        // Timers run before the event loop reads its sockets: after a pause of this process
        // (not the responder's) a progress message may be waiting unread. Look once more after
        // the next read before calling the responder dead.
        setImmediate(() => {
          if (!pending.has(token)) return;
          if (performance.now() - entry.heard < silenceMs) check();
          else settle({ kind: "silent" });
        });
      };
      timer = setTimeout(check, Math.min(timeoutMs, silenceMs));
      try {
        connection.publish(subject, data, { reply: `${base}${token}`, headers });
      } catch (error) {
        settle({ kind: "refused", error });
      }
      return { done, abandon: () => settle({ kind: "timeout" }) };
    },

    publishRefused(subject, error) {
      for (const p of [...pending.values()]) {
        if (p.subject === subject) p.settle({ kind: "refused", error });
      }
    },
  };
}

/**
 * One request through the mux, settled by whichever comes first: the reply, why none came, or
 * the connection lost. A responder that fell silent died or hangs: with `onSilence` "repeat"
 * (safe to ask twice) the request goes once more, to whichever instance the queue group picks
 * (a dead process's subscriptions are gone with its connection), within what is left of the
 * same wait.
 */
export async function ask(
  mux: ReplyMux,
  request: {
    subject: string;
    data: Uint8Array;
    /** built for each sending: they carry the time left */
    headers: () => MsgHdrs;
    timeoutMs: number;
    onSilence: "repeat" | "unknown" | undefined;
    /** registers what settles the request as "lost"; answers how to unregister it */
    whileConnected: (lose: () => void) => () => void;
    repeating: () => void;
  },
): Promise<Exchange | "lost"> {
  const end = performance.now() + request.timeoutMs;
  const once = async (waitMs: number): Promise<Exchange | "lost"> => {
    const asked = mux.request(
      request.subject,
      request.data,
      request.headers(),
      waitMs,
      request.onSilence !== undefined,
    );
    let forget = () => {};
    try {
      return await new Promise<Exchange | "lost">((resolve) => {
        forget = request.whileConnected(() => {
          asked.abandon();
          resolve("lost");
        });
        void asked.done.then(resolve);
      });
    } finally {
      forget();
    }
  };
  const outcome = await once(request.timeoutMs);
  const left = end - performance.now();
  if (outcome === "lost" || outcome.kind !== "silent") return outcome;
  if (request.onSilence !== "repeat" || left < 1) return outcome;
  request.repeating();
  return once(left);
}

/** The liveness a process's NATS_* settings ask for; unset values keep the defaults. */
export function livenessOf(settings: {
  NATS_PROGRESS_INTERVAL_MS?: number | undefined;
  NATS_SILENCE_TIMEOUT_MS?: number | undefined;
}): Partial<Liveness> {
  return {
    ...(settings.NATS_PROGRESS_INTERVAL_MS === undefined
      ? {}
      : { progressIntervalMs: settings.NATS_PROGRESS_INTERVAL_MS }),
    ...(settings.NATS_SILENCE_TIMEOUT_MS === undefined
      ? {}
      : { silenceTimeoutMs: settings.NATS_SILENCE_TIMEOUT_MS }),
  };
}
