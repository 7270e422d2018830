import { SpanStatusCode } from "@opentelemetry/api";
import {
  AckPolicy,
  DeliverPolicy,
  RetentionPolicy,
  jetstreamManager,
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
import { trackDurable } from "./durables.js";
import { ensureStream } from "./streams.js";

const NANOS_PER_MS = 1_000_000;

/**
 * What a durable handler decided: `done` acknowledges; `retry` has the server redeliver after
 * the delay (a NAK with delay, JetStream 2.7+); `drop` terminates the message for good.
 */
export type DurableOutcome =
  | { readonly kind: "done" }
  | { readonly kind: "retry"; readonly delayMs: number }
  | { readonly kind: "drop"; readonly reason: string };

export const done: DurableOutcome = { kind: "done" };

/** What a durable handler knows of the message beyond its body. */
export interface DeliveryInfo {
  /** 1 on the first delivery */
  readonly attempt: number;
  readonly logger: Logger;
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

export interface Durable {
  stop(): Promise<void>;
}

interface ConsumeOptions<T> {
  stream: string;
  durable: string;
  filterSubject: string;
  /** the subject its spans are named after, unprefixed */
  subject: string;
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } };
  handler: (body: T, info: DeliveryInfo) => Promise<DurableOutcome>;
  logger: Logger;
  /** messages handled at once by this instance */
  concurrency: number;
  /** how long the server waits for an answer before redelivering */
  ackWaitMs: number;
}

async function consumeDurable<T>(bus: Bus, options: ConsumeOptions<T>): Promise<Durable> {
  const jsm = await jetstreamManager(bus.connection);
  const tunable = {
    ack_wait: options.ackWaitMs * NANOS_PER_MS,
    max_ack_pending: Math.max(options.concurrency * 4, 16),
  };
  try {
    await jsm.consumers.add(options.stream, {
      durable_name: options.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: options.filterSubject,
      ...tunable,
    });
  } catch (error) {
    // the durable exists with other settings (a changed concurrency, say): it keeps its
    // position, and what may change is changed
    const existing = await jsm.consumers.info(options.stream, options.durable).catch(() => null);
    if (!existing) throw error;
    await jsm.consumers.update(options.stream, options.durable, tunable);
  }
  const consumer = await bus.jetstream().consumers.get(options.stream, options.durable);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: options.concurrency });
  const forget = trackDurable(bus, { stream: options.stream, durable: options.durable });
  const running = new Set<Promise<void>>();

  async function handle(m: JsMsg): Promise<void> {
    const logger = options.logger.child({ durable: options.durable, seq: m.seq });
    let body: unknown;
    try {
      body = m.json();
    } catch {
      logger.error("durable message is not JSON: dropped");
      m.term();
      return;
    }
    const parsed = options.schema.safeParse(body);
    if (!parsed.success) {
      logger.error("durable message breaks its schema: dropped");
      m.term();
      return;
    }
    const outcome = await bus.consumed(options.subject, [m.headers], async (span) => {
      span.setAttribute("messaging.message.delivery_count", m.info.deliveryCount);
      let settled: DurableOutcome;
      try {
        settled = await options.handler(parsed.data, { attempt: m.info.deliveryCount, logger });
      } catch (error) {
        // a bug or a lost dependency: try again later rather than lose the work
        logger.error({ err: error }, "durable handler failed");
        settled = { kind: "retry", delayMs: 5_000 };
      }
      if (settled.kind !== "done") {
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: settled.kind === "retry" ? "to be retried" : settled.reason,
        });
      }
      return settled;
    });
    if (outcome.kind === "done") m.ack();
    else if (outcome.kind === "retry") m.nak(outcome.delayMs);
    else {
      logger.warn({ reason: outcome.reason }, "durable message dropped");
      m.term();
    }
  }

  const loop = (async () => {
    for await (const m of messages) {
      const task = handle(m).catch((error: unknown) =>
        options.logger.error({ err: error }, "durable message not settled"),
      );
      running.add(task);
      void task.finally(() => running.delete(task));
      if (running.size >= options.concurrency) await Promise.race(running);
    }
  })();

  return {
    async stop() {
      forget();
      await messages.close();
      await loop;
      await Promise.all(running);
    },
  };
}

/** Consumes a job kind's work queue with one durable consumer shared by every instance. */
export function consumeJobs<J extends JobContract>(
  bus: Bus,
  job: J,
  options: {
    durable: string;
    handler: (body: JobOf<J>, info: DeliveryInfo) => Promise<DurableOutcome>;
    logger: Logger;
    concurrency?: number;
    ackWaitMs?: number;
  },
): Promise<Durable> {
  return consumeDurable<JobOf<J>>(bus, {
    stream: jobStreamName(bus, job),
    durable: options.durable,
    filterSubject: prefixed(bus, job.subject),
    subject: job.subject,
    schema: job.schema as ConsumeOptions<JobOf<J>>["schema"],
    handler: options.handler,
    logger: options.logger,
    concurrency: options.concurrency ?? 4,
    ackWaitMs: options.ackWaitMs ?? 120_000,
  });
}

/**
 * Reads one event kind from the EVENTS stream, one message at a time (`consumeEvents` reads
 * batches) with a durable consumer: every event once per
 * durable name (across instances), redelivered until the handler is done with it.
 */
export async function consumeEachEvent<E extends EventContract>(
  bus: Bus,
  event: E,
  options: {
    durable: string;
    handler: (body: EventOf<E>, info: DeliveryInfo) => Promise<DurableOutcome>;
    logger: Logger;
    concurrency?: number;
  },
): Promise<Durable> {
  await bus.ensureEventStream();
  return consumeDurable<EventOf<E>>(bus, {
    stream: bus.eventStreamName(),
    durable: options.durable,
    filterSubject: prefixed(bus, event.subject),
    subject: event.subject,
    schema: event.schema as ConsumeOptions<EventOf<E>>["schema"],
    handler: options.handler,
    logger: options.logger,
    concurrency: options.concurrency ?? 4,
    ackWaitMs: 60_000,
  });
}
