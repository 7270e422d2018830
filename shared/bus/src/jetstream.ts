import { context, SpanKind, SpanStatusCode, trace, type Span } from "@opentelemetry/api";
import type { JetStreamClient } from "@nats-io/jetstream";
import type { MsgHdrs } from "@nats-io/nats-core";
import type { EventContract, EventOf, JobContract, JobOf } from "@pasarela/contracts";
import { ensureStream } from "./streams.js";
import {
  contextFrom,
  encoder,
  messagingAttributes,
  outgoingHeaders,
  type BusCore,
  type RequestOptions,
} from "./wire.js";

/**
 * What the bus stores in JetStream: events on the EVENTS stream, jobs on their work queues,
 * published under PRODUCER spans and processed under CONSUMER spans.
 */

/** a batch's span links to this many producers at most */
const MAX_SPAN_LINKS = 128;

/**
 * Publishes an event or a job under a PRODUCER span; resolves once the server stored it. Its
 * `id` is the msgID, so a second publication within the stream's window is dropped.
 */
export async function publish<E extends EventContract | JobContract>(
  core: BusCore,
  js: JetStreamClient,
  event: E,
  body: EventOf<E> | JobOf<E>,
  requestOptions: RequestOptions | undefined,
): Promise<void> {
  const parsed = event.schema.parse(body);
  const span = core.tracer.startSpan(`${event.subject} publish`, {
    kind: SpanKind.PRODUCER,
    attributes: {
      ...messagingAttributes(event.subject, "publish"),
      "messaging.message.id": parsed.id,
    },
  });
  try {
    await context.with(trace.setSpan(context.active(), span), () =>
      js.publish(core.subjectOf(event.subject), encoder.encode(JSON.stringify(parsed)), {
        msgID: parsed.id,
        headers: outgoingHeaders(requestOptions),
      }),
    );
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: "publish failed" });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * The processing span of events: a CONSUMER span linked to each producer's span, as the
 * messaging conventions ask, and in the producer's trace when there is one event.
 */
function consumerSpan(core: BusCore, subject: string, headers: readonly (MsgHdrs | undefined)[]) {
  const producers = headers.map(contextFrom);
  const parent = producers.length === 1 ? producers[0]! : context.active();
  const links = producers
    .map((producer) => trace.getSpanContext(producer))
    .filter((link) => link !== undefined)
    .slice(0, MAX_SPAN_LINKS)
    .map((link) => ({ context: link }));
  const span = core.tracer.startSpan(
    `${subject} process`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        ...messagingAttributes(subject, "process"),
        ...(producers.length > 1 ? { "messaging.batch.message_count": producers.length } : {}),
      },
      links,
    },
    parent,
  );
  return { span, spanContext: trace.setSpan(parent, span) };
}

/** Runs `work` inside the CONSUMER span of the messages whose headers are given. */
export async function consumed<T>(
  core: BusCore,
  subject: string,
  headers: readonly (MsgHdrs | undefined)[],
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const { span, spanContext } = consumerSpan(core, subject, headers);
  try {
    return await context.with(spanContext, () => work(span));
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: "processing failed" });
    throw error;
  } finally {
    span.end();
  }
}

/** Ensures the EVENTS stream exists, capturing `evt.>` only. */
export async function ensureEventStream(
  core: BusCore,
  name: string,
  replicas: number,
): Promise<void> {
  await ensureStream(core.connection, {
    name,
    subjects: [core.subjectOf("evt.>")],
    num_replicas: replicas,
    duplicate_window: 2 * 60 * 1_000_000_000,
    max_age: 7 * 24 * 3600 * 1_000_000_000,
  });
}
