import { AckPolicy, jetstreamManager, type JsMsg } from "@nats-io/jetstream";
import type { EventContract, EventOf } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { Bus } from "./bus.js";
import { trackDurable } from "./durables.js";

/** One event of a batch, parsed against its contract. */
export interface ConsumedEvent<E extends EventContract> {
  readonly contract: E;
  readonly body: EventOf<E>;
}

export interface DurableConsumer {
  stop(): Promise<void>;
}

export interface ConsumeOptions<E extends EventContract> {
  /** the durable consumer's name: one per consuming service and purpose */
  durable: string;
  /** the events consumed; the server filters on their common subject prefix followed by `>` */
  events: readonly E[];
  /** at most this many events per call of `handle` */
  maxBatch: number;
  logger: Logger;
  /**
   * Applies a batch; resolves once it is stored. Delivery is at least once: a batch whose
   * handling failed comes again (after `retryDelayMs`), so `handle` must be idempotent.
   */
  handle: (batch: readonly ConsumedEvent<E>[]) => Promise<void>;
  retryDelayMs?: number;
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

/**
 * A durable JetStream consumer of the EVENTS stream, read in batches with explicit acks: an
 * event is acknowledged only after `handle` stored it, so a crash never loses one. Events
 * that break their schema are logged and terminated, never retried forever.
 */
export async function consumeEvents<E extends EventContract>(
  bus: Bus,
  options: ConsumeOptions<E>,
): Promise<DurableConsumer> {
  const prefixed = (subject: string) => (bus.prefix ? `${bus.prefix}.${subject}` : subject);
  const stream = bus.eventStreamName();
  const jsm = await jetstreamManager(bus.connection);
  await jsm.consumers.add(stream, {
    durable_name: options.durable,
    ack_policy: AckPolicy.Explicit,
    filter_subject: prefixed(filterOf(options.events)),
    max_ack_pending: Math.max(1_000, options.maxBatch * 4),
  });
  const consumer = await bus.jetstream().consumers.get(stream, options.durable);
  const bySubject = new Map(options.events.map((e) => [prefixed(e.subject), e]));
  const forget = trackDurable(bus, { stream, durable: options.durable });
  let stopped = false;

  async function round(): Promise<void> {
    const messages = await consumer.fetch({ max_messages: options.maxBatch, expires: 1_000 });
    const taken: JsMsg[] = [];
    const batch: ConsumedEvent<E>[] = [];
    for await (const m of messages) {
      const contract = bySubject.get(m.subject);
      if (!contract) {
        // another kind of event under the same prefix: not this consumer's to read
        m.ack();
        continue;
      }
      const parsed = contract.schema.safeParse(m.json());
      if (!parsed.success) {
        options.logger.error({ subject: m.subject, seq: m.seq }, "event breaks its schema");
        m.term();
        continue;
      }
      taken.push(m);
      batch.push({ contract, body: parsed.data as EventOf<E> });
    }
    if (batch.length === 0) return;
    try {
      await bus.consumed(
        filterOf(options.events),
        taken.map((m) => m.headers),
        () => options.handle(batch),
      );
      for (const m of taken) m.ack();
    } catch (error) {
      options.logger.warn({ err: error, events: batch.length }, "event batch not applied");
      for (const m of taken) m.nak(options.retryDelayMs ?? 1_000);
    }
  }

  const loop = (async () => {
    while (!stopped) {
      try {
        await round();
      } catch (error) {
        if (stopped) break;
        options.logger.warn({ err: error, durable: options.durable }, "event fetch failed");
        await new Promise((r) => setTimeout(r, options.retryDelayMs ?? 1_000));
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      forget();
      await loop;
    },
  };
}
