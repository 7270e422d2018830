import { SpanStatusCode } from "@opentelemetry/api";
import {
  AckPolicy,
  DeliverPolicy,
  RetentionPolicy,
  jetstreamManager,
  type Consumer,
  type ConsumerMessages,
  type JsMsg,
} from "@nats-io/jetstream";
import {
  jobStreamOf,
  type EventContract,
  type EventOf,
  type JobContract,
  type JobOf,
} from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { Bus } from "./bus.js";
import { stopWithBus, trackDurable } from "./durables.js";
import { ensureStream, JETSTREAM_ADMIN_TIMEOUT_MS } from "./streams.js";

const NANOS_PER_MS = 1_000_000;

/**
 * What a durable handler decided: `done` acknowledges; `retry` has the server redeliver after
 * the delay (a NAK with delay); `drop` terminates the messages for good.
 */
export type DurableOutcome =
  | { readonly kind: "done" }
  | { readonly kind: "retry"; readonly delayMs: number }
  | { readonly kind: "drop"; readonly reason: string };

export const done: DurableOutcome = { kind: "done" };

/** What a durable handler knows of its messages beyond their bodies. */
export interface DeliveryInfo {
  /** 1 on the first delivery; for a batch, that of its most delivered message */
  readonly attempt: number;
  readonly logger: Logger;
}

/** One message taken from JetStream, parsed against its contract. */
export interface Delivered<C extends EventContract | JobContract> {
  readonly contract: C;
  readonly body: EventOf<C> | JobOf<C>;
}

export interface Durable {
  /**
   * Fetches no more: a batch being handled is settled (acknowledged, retried or dropped as
   * its handler decides); messages fetched but not handled yet go back to the server at once
   * (NAK), for another instance. A second call returns the same promise.
   */
  stop(): Promise<void>;
}

export interface DurableOptions<C extends EventContract | JobContract> {
  /** the durable consumer's name: one per consuming service and purpose, shared by instances */
  durable: string;
  logger: Logger;
  /**
   * Settles a batch of messages, all in one way. Delivery is at least once: a batch comes again
   * after `retry`, after a throw and after a crash, so the handler must be idempotent (the
   * events' and jobs' ids are what it de-duplicates on).
   */
  handle: (batch: readonly Delivered<C>[], info: DeliveryInfo) => Promise<DurableOutcome>;
  /**
   * at most this many messages per batch (1): those that come while the batch before is being
   * handled, up to this many per fetch
   */
  maxBatch?: number;
  /**
   * how long one fetch waits for messages before the next is asked for (1 s, the least the
   * client takes); a message is handled as soon as it comes all the same
   */
  fetchWaitMs?: number;
  /** batches this instance handles at once (1) */
  concurrency?: number;
  /** how long the server waits for a batch to be settled before it redelivers it (30 s) */
  ackWaitMs?: number;
  /** when a batch whose handler threw comes again, and the wait after a failed fetch (1 s) */
  retryDelayMs?: number;
}

const prefixed = (bus: Bus, subject: string) => (bus.prefix ? `${bus.prefix}.${subject}` : subject);

/** The stream of a job kind, isolated per deployment (and per test file) by the prefix. */
export function jobStreamName(bus: Bus, job: JobContract): string {
  // the same name the NATS grants are written for
  return jobStreamOf(job, bus.prefix);
}

/**
 * Ensures the job's work-queue stream exists: each message is kept until one consumer
 * acknowledges it, then removed. It captures `job.` subjects only, never a request subject.
 */
export async function ensureJobStream(bus: Bus, job: JobContract): Promise<void> {
  await ensureStream(bus.connection, {
    name: jobStreamName(bus, job),
    subjects: [prefixed(bus, job.subject)],
    num_replicas: bus.streamReplicas,
    retention: RetentionPolicy.Workqueue,
    duplicate_window: 2 * 60 * 1_000 * NANOS_PER_MS,
    max_age: 7 * 24 * 3600 * 1_000 * NANOS_PER_MS,
  });
}

/**
 * The one subject the server filters on (nats-server 2.9 takes one per consumer): the events'
 * common prefix, short of their last token, followed by `>`. Other events under it (a kind
 * this consumer does not read) are acknowledged and skipped.
 */
export function filterOf(events: readonly EventContract[]): string {
  const [first, ...rest] = events.map((e) => e.subject.split(".").slice(0, -1));
  const common: string[] = [];
  for (const [i, token] of (first ?? []).entries()) {
    if (!rest.every((tokens) => tokens[i] === token)) break;
    common.push(token);
  }
  return [...common, ">"].join(".");
}

const isJob = (contract: EventContract | JobContract): contract is JobContract =>
  contract.subject.startsWith("job.");

/** The stream a durable reads and the subject it filters on (unprefixed). */
async function sourceOf(
  bus: Bus,
  from: readonly (EventContract | JobContract)[],
): Promise<{ stream: string; filter: string }> {
  const jobs = from.filter(isJob);
  if (jobs.length > 0) {
    if (from.length !== 1) throw new Error("a durable reads one job kind, or events only");
    return { stream: jobStreamName(bus, jobs[0]!), filter: jobs[0]!.subject };
  }
  if (from.length === 0) throw new Error("a durable reads at least one event kind");
  await bus.ensureEventStream();
  const events = from as readonly EventContract[];
  return {
    stream: bus.eventStreamName(),
    filter: events.length === 1 ? events[0]!.subject : filterOf(events),
  };
}

/** Creates the durable, or brings an existing one to the settings that may change. */
async function ensureDurable(
  bus: Bus,
  stream: string,
  durable: string,
  filter: string,
  tunable: { ack_wait: number; max_ack_pending: number },
): Promise<Consumer> {
  const jsm = await jetstreamManager(bus.connection, { timeout: JETSTREAM_ADMIN_TIMEOUT_MS });
  try {
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: prefixed(bus, filter),
      ...tunable,
    });
  } catch (error) {
    // the durable exists with other settings (a changed concurrency, say): it keeps its
    // position and its filter, and what may change is changed
    const existing = await jsm.consumers.info(stream, durable).catch(() => null);
    if (!existing) throw error;
    await jsm.consumers.update(stream, durable, tunable);
  }
  return bus.jetstream().consumers.get(stream, durable);
}

/**
 * Reads events of the EVENTS stream, or one job kind's work queue, with a durable JetStream
 * consumer shared by every instance: each message once per durable name, acknowledged only
 * once its batch is settled, so a crash never loses one. A message that is not JSON or
 * breaks its schema is logged and terminated, never retried forever; another kind of event
 * under the filter is acknowledged and skipped. A batch is handled inside one CONSUMER span
 * named after the filter, in the producer's trace for one message, linked to every producer.
 */
export async function consumeDurable<C extends EventContract | JobContract>(
  bus: Bus,
  from: readonly C[],
  options: DurableOptions<C>,
): Promise<Durable> {
  const maxBatch = options.maxBatch ?? 1;
  const fetchWaitMs = options.fetchWaitMs ?? 1_000;
  const concurrency = options.concurrency ?? 1;
  const retryDelayMs = options.retryDelayMs ?? 1_000;
  const { stream, filter } = await sourceOf(bus, from);
  const consumer = await ensureDurable(bus, stream, options.durable, filter, {
    ack_wait: (options.ackWaitMs ?? 30_000) * NANOS_PER_MS,
    max_ack_pending: Math.max(maxBatch * concurrency * 4, 16),
  });
  const bySubject = new Map<string, C>(from.map((c) => [prefixed(bus, c.subject), c]));
  const forget = trackDurable(bus, { stream, durable: options.durable });
  let stopped = false;
  // the fetches waiting for messages now, ended early by stop()
  const fetching = new Set<ConsumerMessages>();

  /** The message parsed, or undefined once it is settled here (skipped or terminated). */
  function parse(m: JsMsg): Delivered<C> | undefined {
    const contract = bySubject.get(m.subject);
    if (!contract) {
      // another kind of event under the same filter: not this consumer's to read
      m.ack();
      return undefined;
    }
    let body: unknown;
    try {
      body = m.json();
    } catch {
      options.logger.error(
        { durable: options.durable, seq: m.seq },
        "message is not JSON: dropped",
      );
      m.term();
      return undefined;
    }
    const parsed = contract.schema.safeParse(body);
    if (!parsed.success) {
      options.logger.error(
        { durable: options.durable, subject: m.subject, seq: m.seq },
        "message breaks its schema: dropped",
      );
      m.term();
      return undefined;
    }
    return { contract, body: parsed.data as EventOf<C> | JobOf<C> };
  }

  async function settle(taken: readonly JsMsg[], batch: readonly Delivered<C>[]): Promise<void> {
    const attempt = Math.max(...taken.map((m) => m.info.deliveryCount));
    const logger = options.logger.child({
      durable: options.durable,
      seq: taken[0]!.seq,
      ...(taken.length > 1 ? { messages: taken.length } : {}),
    });
    const outcome = await bus.consumed(
      filter,
      taken.map((m) => m.headers),
      async (span) => {
        span.setAttribute("messaging.message.delivery_count", attempt);
        let settled: DurableOutcome;
        try {
          settled = await options.handle(batch, { attempt, logger });
        } catch (error) {
          // a bug or a lost dependency: try again later rather than lose the work
          logger.warn({ err: error }, "durable batch not settled: to be retried");
          settled = { kind: "retry", delayMs: retryDelayMs };
        }
        if (settled.kind !== "done") {
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: settled.kind === "retry" ? "to be retried" : settled.reason,
          });
        }
        return settled;
      },
    );
    for (const m of taken) {
      if (outcome.kind === "done") m.ack();
      else if (outcome.kind === "retry") m.nak(outcome.delayMs);
      else m.term();
    }
    if (outcome.kind === "drop") logger.warn({ reason: outcome.reason }, "durable batch dropped");
  }

  /**
   * One fetch of up to `maxBatch` messages, open for `fetchWaitMs` at most. Messages are handled
   * as they come, not once the fetch ends: the first is handed to the handler as soon as the
   * messages that arrived with it are read, and those that arrive while a batch is being
   * handled make the next batch, one after the other (so a quiet stream answers at once and a
   * busy one still settles many messages per batch).
   */
  async function round(): Promise<void> {
    const messages = await consumer.fetch({ max_messages: maxBatch, expires: fetchWaitMs });
    fetching.add(messages);
    let taken: JsMsg[] = [];
    let batch: Delivered<C>[] = [];
    let settling: Promise<void> = Promise.resolve();
    let queued = false;
    let failure: { error: unknown } | undefined;
    /** what came since the last batch, as the next one */
    const next = async () => {
      // the messages read with the one that queued this batch join it
      await new Promise((resolve) => setImmediate(resolve));
      queued = false;
      const [nextTaken, nextBatch] = [taken, batch];
      taken = [];
      batch = [];
      if (nextTaken.length === 0) return;
      if (stopped || failure) {
        // fetched while stopping (or after a batch failed), never handled: redelivered now,
        // to an instance that runs on
        for (const m of nextTaken) m.nak();
        return;
      }
      try {
        await settle(nextTaken, nextBatch);
      } catch (error) {
        failure = { error };
      }
    };
    try {
      if (stopped) messages.stop();
      for await (const m of messages) {
        const delivered = parse(m);
        if (!delivered) continue;
        taken.push(m);
        batch.push(delivered);
        if (!queued) {
          queued = true;
          settling = settling.then(next);
        }
      }
    } finally {
      fetching.delete(messages);
      await settling;
    }
    if (failure) throw failure.error;
  }

  const worker = async (): Promise<void> => {
    while (!stopped) {
      try {
        await round();
      } catch (error) {
        if (stopped) break;
        options.logger.warn({ err: error, durable: options.durable }, "durable fetch failed");
        await new Promise((r) => setTimeout(r, retryDelayMs));
      }
    }
  };
  const workers = Array.from({ length: concurrency }, worker);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      stopped = true;
      forget();
      for (const messages of fetching) messages.stop();
      await Promise.all(workers);
      unregister();
    })();
    return stopping;
  };
  const unregister = stopWithBus(bus, stop);
  return { stop };
}
