import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from "@opentelemetry/api";
import { jetstream, type JetStreamClient } from "@nats-io/jetstream";
import {
  headers as natsHeaders,
  type Msg,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
} from "@nats-io/nats-core";
import { credsAuthenticator } from "@nats-io/nats-core";
import { connect } from "@nats-io/transport-node";
import type {
  Contract,
  EventContract,
  EventOf,
  JobContract,
  JobOf,
  ParsedRequestOf,
  ReplyInputOf,
  ReplyOf,
  RequestOf,
} from "@pasarela/contracts";
import {
  attachedError,
  DEADLINE_SLACK_MS,
  eventStreamOf,
  healthContract,
  natsInboxOf,
} from "@pasarela/contracts";
import {
  appError,
  fail,
  kindOf,
  invalidField,
  isErrorCode,
  type AppError,
  type Result,
} from "@pasarela/errors";
import {
  checkLiveness,
  defaultLiveness,
  keepRequesterInformed,
  makeReplyMux,
  ask,
  type Liveness,
} from "./liveness.js";
import { ensureStream } from "./streams.js";
import { counter, histogram, secondsSince, type Logger } from "@pasarela/telemetry";
import type { z } from "zod";

/** Headers the bus writes on every request and event; handlers never read headers themselves. */
const HEADER_ACCOUNT_ID = "account-id";
const HEADER_REQUEST_ID = "request-id";
/**
 * The milliseconds left of the caller's deadline when the request left, as gRPC sends its
 * timeout: relative, so instances whose clocks differ still agree on it.
 */
const HEADER_BUDGET = "budget-ms";

/** What a handler knows about the request beyond its body. */
export interface HandlerContext {
  readonly accountId: string | undefined;
  readonly requestId: string;
  readonly subject: string;
  /**
   * when (Date.now() scale) the caller wants the answer by; undefined when it set none.
   * Whatever waits on the authority ends before it (AUTHORITY_STEP_MARGIN_MS).
   */
  readonly deadline: number | undefined;
  /** a child logger carrying subject, request id and account id; trace ids come with the span */
  readonly logger: Logger;
}

export type Handler<C extends Contract> = (
  request: ParsedRequestOf<C>,
  ctx: HandlerContext,
) => Promise<Result<ReplyInputOf<C>>>;

export interface Binding {
  readonly contract: Contract;
  readonly handler: Handler<Contract>;
}

/** Pairs a contract with its handler, typed against each other. */
export function bind<C extends Contract>(contract: C, handler: Handler<C>): Binding {
  return { contract, handler };
}

export interface RequestOptions {
  accountId?: string | undefined;
  requestId?: string | undefined;
  timeoutMs?: number | undefined;
  /**
   * when (Date.now() scale) the answer is wanted by: carried to the handler, and the wait for
   * the reply ends DEADLINE_SLACK_MS after it at the latest. A handler passes its own
   * `ctx.deadline` on, so every hop of one API call shares one deadline.
   */
  deadline?: number | undefined;
}

/** The wait for a reply, never past the deadline's slack. */
function waitFor(timeoutMs: number, deadline: number | undefined): number {
  if (deadline === undefined) return timeoutMs;
  return Math.min(timeoutMs, Math.max(deadline - Date.now(), 0) + DEADLINE_SLACK_MS);
}

export interface ServeOptions {
  /** service name: the queue group and the `<name>.health.get` subject */
  name: string;
  version?: string;
  /** extra readiness condition (for example the database answers) */
  ready?: () => Promise<boolean>;
}

export interface Served {
  stop: () => Promise<void>;
}

export interface Bus {
  readonly connection: NatsConnection;
  readonly prefix: string;
  /** the replicas every JetStream stream it ensures is kept on */
  readonly streamReplicas: number;
  /** false from the moment the connection to the server is lost until it is re-established */
  isConnected(): boolean;
  serve(options: ServeOptions, bindings: readonly Binding[]): Served;
  request<C extends Contract>(
    contract: C,
    body: RequestOf<C>,
    options?: RequestOptions,
  ): Promise<Result<ReplyOf<C>>>;
  /**
   * Publishes an event to the EVENTS stream, or a job to its work queue, under a PRODUCER
   * span; resolves once the server stored it. Its `id` de-duplicates a second publication.
   */
  publish<E extends EventContract | JobContract>(
    event: E,
    body: EventOf<E> | JobOf<E>,
    options?: RequestOptions,
  ): Promise<void>;
  /** Every instance receives the event (core subscription), for cache invalidation. */
  listen<E extends EventContract>(
    event: E,
    handler: (body: EventOf<E>, ctx: HandlerContext) => Promise<void> | void,
  ): Subscription;
  /**
   * Runs the processing of messages a durable consumer took from JetStream inside a CONSUMER
   * span `<subject> process`: in the producer's trace for one message, linked to every
   * producer for a batch. A throw marks the span ERROR; `work` may mark it too.
   */
  consumed<T>(
    subject: string,
    headers: readonly (MsgHdrs | undefined)[],
    work: (span: Span) => Promise<T>,
  ): Promise<T>;
  /** Runs `onReconnect` after every reconnection (listeners may have missed events). */
  onReconnect(callback: () => void): void;
  /** Ensures the EVENTS stream exists (capturing `evt.>` only). */
  ensureEventStream(): Promise<void>;
  /** The JetStream client, for durable consumers. */
  jetstream(): JetStreamClient;
  eventStreamName(): string;
  close(): Promise<void>;
}

/** How a process authenticates to NATS (the NATS_USER/NATS_PASSWORD or NATS_CREDS settings). */
export type NatsCredentials =
  { readonly user: string; readonly password: string } | { readonly credsFile: string };

export interface BusOptions {
  url: string;
  /** subject prefix isolating a deployment or a test file on a shared server */
  prefix?: string | undefined;
  /** connection name shown by the server */
  name: string;
  /**
   * the process's own NATS identity; none connects anonymously. With a user, replies come to
   * `_INBOX.<user>.…` (natsInboxOf), the only inbox the server grants that user.
   */
  credentials?: NatsCredentials | undefined;
  logger: Logger;
  tracer: Tracer;
  defaultTimeoutMs?: number;
  /** replicas of the JetStream streams it creates: 1 on one server, 3 on a 3-node cluster */
  streamReplicas?: number | undefined;
  /**
   * Turns what a handler threw into an expected failure when it is one (a lost database
   * connection is SERVICE_UNAVAILABLE); undefined leaves it an INTERNAL bug.
   */
  classifyFailure?: (error: unknown) => AppError | undefined;
  /** progress messages while a handler runs, and the silence after which a responder is dead */
  liveness?: Partial<Liveness> | undefined;
}

type WireReply = { ok: true; value: unknown } | { ok: false; error: AppError };

const encoder = new TextEncoder();
/** a batch's span links to this many producers at most */
const MAX_SPAN_LINKS = 128;
const decoder = new TextDecoder();

const headerGetter = {
  get: (carrier: MsgHdrs, key: string) => carrier.get(key) || undefined,
  keys: (carrier: MsgHdrs) => carrier.keys(),
};
const headerSetter = {
  set: (carrier: MsgHdrs, key: string, value: string) => carrier.set(key, value),
};

function describeIssue(issue: z.core.$ZodIssue): AppError {
  const attached = attachedError(issue);
  if (attached) return attached;
  const field = issue.path.length > 0 ? issue.path.join(".") : "(cuerpo)";
  return invalidField(field, issue.message);
}

function encodeReply(reply: WireReply): Uint8Array {
  return encoder.encode(JSON.stringify(reply));
}

export async function connectBus(options: BusOptions): Promise<Bus> {
  const credentials = options.credentials;
  const liveness = checkLiveness({ ...defaultLiveness, ...options.liveness });
  const inboxPrefix =
    credentials && "user" in credentials ? natsInboxOf(credentials.user) : undefined;
  const connection = await connect({
    servers: options.url,
    name: options.name,
    ...(credentials && "user" in credentials
      ? {
          user: credentials.user,
          pass: credentials.password,
          inboxPrefix,
        }
      : {}),
    ...(credentials && "credsFile" in credentials
      ? { authenticator: credsAuthenticator(readFileSync(credentials.credsFile)) }
      : {}),
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // Failures become catalogue errors; capturing a stack per request costs more than it tells.
    noAsyncTraces: true,
  });
  const js = jetstream(connection);
  const replies = makeReplyMux(connection, inboxPrefix, liveness.silenceTimeoutMs);
  const prefix = options.prefix ?? "";
  const subjectOf = (name: string) => (prefix ? `${prefix}.${name}` : name);
  const streamName = eventStreamOf(prefix);
  const { logger, tracer } = options;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? 10_000;
  const reconnectCallbacks: (() => void)[] = [];
  const served: Served[] = [];
  // While the server is unreachable the client buffers requests until their timeout (65 s on
  // authority subjects): requests fail at once instead, and those in flight when the
  // connection drops fail as soon as that is known, since their replies cannot arrive.
  let connected = true;
  const inFlight = new Set<() => void>();

  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === "reconnect") {
        connected = true;
        logger.warn({ server: status.server }, "nats reconnected");
        for (const callback of reconnectCallbacks) callback();
      } else if (status.type === "disconnect") {
        connected = false;
        logger.warn({ server: status.server, inFlight: inFlight.size }, "nats disconnected");
        for (const lose of inFlight) lose();
        inFlight.clear();
      } else if (status.type === "error") {
        // the server refused a publish: the request waiting on it fails now, not at its deadline
        const error = status.error as Error & { operation?: string; subject?: string };
        if (error.name === "PermissionViolationError" && error.operation === "publish") {
          replies.publishRefused(error.subject ?? "", error);
        }
      }
    }
  })();

  function contextFrom(headers: MsgHdrs | undefined): Context {
    return headers
      ? propagation.extract(context.active(), headers, headerGetter)
      : context.active();
  }

  /**
   * The processing span of events: a CONSUMER span linked to each producer's span, as the
   * messaging conventions ask, and in the producer's trace when there is one event.
   */
  function consumerSpan(subject: string, headers: readonly (MsgHdrs | undefined)[]) {
    const producers = headers.map(contextFrom);
    const parent = producers.length === 1 ? producers[0]! : context.active();
    const links = producers
      .map((producer) => trace.getSpanContext(producer))
      .filter((link) => link !== undefined)
      .slice(0, MAX_SPAN_LINKS)
      .map((link) => ({ context: link }));
    const span = tracer.startSpan(
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

  function outgoingHeaders(requestOptions: RequestOptions | undefined): MsgHdrs {
    const h = natsHeaders();
    propagation.inject(context.active(), h, headerSetter);
    if (requestOptions?.accountId) h.set(HEADER_ACCOUNT_ID, requestOptions.accountId);
    h.set(HEADER_REQUEST_ID, requestOptions?.requestId ?? randomUUID());
    if (requestOptions?.deadline !== undefined) {
      h.set(HEADER_BUDGET, String(Math.max(0, Math.round(requestOptions.deadline - Date.now()))));
    }
    return h;
  }

  function handlerContext(msg: Msg, subject: string): HandlerContext {
    const accountId = msg.headers?.get(HEADER_ACCOUNT_ID) || undefined;
    const requestId = msg.headers?.get(HEADER_REQUEST_ID) || randomUUID();
    // anything but a plain count of milliseconds is no deadline at all
    const budget = msg.headers?.get(HEADER_BUDGET) ?? "";
    const deadline = /^\d{1,10}$/.test(budget) ? Date.now() + Number(budget) : undefined;
    // A child logger costs an allocation and a pass over the redaction paths: made only when
    // a handler actually logs.
    let child: Logger | undefined;
    return {
      accountId,
      requestId,
      subject,
      deadline,
      get logger() {
        child ??= logger.child({ subject, requestId, ...(accountId ? { accountId } : {}) });
        return child;
      },
    };
  }

  function endSpan(span: Span, error?: AppError): void {
    if (error) {
      span.setAttribute("pasarela.error_code", error.code);
      // the caller's own mistakes (4xx) are answers; the gateway's and the authority's failures
      // are errors of the span that saw them
      if (FAILURE_KINDS.has(kindOf(error.code))) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error.code });
      }
    }
    span.end();
  }

  // The core client catches only synchronous throws from callbacks: every handler runs here,
  // inside a promise whose rejection becomes an INTERNAL reply and a logged bug.
  async function handle(binding: Binding, msg: Msg): Promise<void> {
    const { contract } = binding;
    const parentContext = contextFrom(msg.headers);
    const accountId = msg.headers?.get(HEADER_ACCOUNT_ID);
    const span = tracer.startSpan(
      `${contract.subject} process`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          ...messagingAttributes(contract.subject, "process"),
          ...(accountId ? { "pasarela.account_id": accountId } : {}),
        },
      },
      parentContext,
    );
    const started = Date.now();
    const startedAt = performance.now();
    await context.with(trace.setSpan(parentContext, span), async () => {
      const ctx = handlerContext(msg, contract.subject);
      let reply: WireReply;
      try {
        const raw: unknown = msg.data.length === 0 ? {} : JSON.parse(decoder.decode(msg.data));
        const parsed = contract.request.safeParse(raw);
        if (!parsed.success) {
          reply = { ok: false, error: describeIssue(parsed.error.issues[0]!) };
        } else {
          const result = await binding.handler(parsed.data, ctx);
          if (result.ok) {
            const checked = contract.reply.safeParse(result.value);
            if (checked.success) {
              reply = { ok: true, value: checked.data };
            } else {
              ctx.logger.error(
                { issues: checked.error.issues },
                "handler reply breaks its contract",
              );
              reply = { ok: false, error: appError("INTERNAL") };
            }
          } else {
            reply = { ok: false, error: result.error };
          }
        }
      } catch (error) {
        const classified = options.classifyFailure?.(error);
        if (classified) {
          ctx.logger.warn({ err: error, code: classified.code }, "handler failed: dependency");
          reply = { ok: false, error: classified };
        } else {
          ctx.logger.error({ err: error }, "handler failed");
          reply = { ok: false, error: appError("INTERNAL") };
        }
      }
      if (logger.isLevelEnabled("debug")) {
        ctx.logger.debug(
          {
            ok: reply.ok,
            ...(reply.ok ? {} : { code: reply.error.code }),
            ms: Date.now() - started,
          },
          "handled",
        );
      }
      endSpan(span, reply.ok ? undefined : reply.error);
      handled.inc({ subject: contract.subject, outcome: reply.ok ? "ok" : reply.error.code });
      handleSeconds.observe({ subject: contract.subject }, secondsSince(startedAt));
      // the reply goes without headers: the caller's span already covers the exchange, and
      // nothing on its side reads them
      if (msg.reply) msg.respond(encodeReply(reply));
    });
  }

  const bus: Bus = {
    connection,
    prefix,
    streamReplicas: options.streamReplicas ?? 1,
    isConnected: () => connected && !connection.isClosed(),

    serve(serveOptions, bindings) {
      const instance = randomUUID();
      const all: Binding[] = [
        ...bindings,
        bind(healthContract(serveOptions.name), async () => {
          const ready = serveOptions.ready ? await serveOptions.ready() : true;
          if (!ready) return { ok: false, error: appError("SERVICE_UNAVAILABLE") };
          return {
            ok: true,
            value: {
              service: serveOptions.name,
              version: serveOptions.version ?? "0.1.0",
              instance,
            },
          };
        }),
      ];
      const subscriptions = all.map((binding) =>
        connection.subscribe(subjectOf(binding.contract.subject), {
          queue: serveOptions.name,
          callback: (error, msg) => {
            if (error) {
              logger.error(
                { err: error, subject: binding.contract.subject },
                "subscription failed",
              );
              return;
            }
            // the caller hears from this process while the handler runs (liveness.ts); a
            // progress message that slips out after the reply is dropped by the caller
            const informed = keepRequesterInformed(msg, liveness.progressIntervalMs);
            handle(binding, msg)
              .catch((failure: unknown) =>
                logger.error({ err: failure }, "reply could not be sent"),
              )
              .finally(informed);
          },
        }),
      );
      const handle$: Served = {
        async stop() {
          // drain: in-flight requests finish and get their replies before the subscription goes
          await Promise.all(subscriptions.filter((s) => !s.isClosed()).map((s) => s.drain()));
        },
      };
      served.push(handle$);
      return handle$;
    },

    async request(contract, body, requestOptions) {
      const span = tracer.startSpan(`${contract.subject} send`, {
        kind: SpanKind.CLIENT,
        attributes: messagingAttributes(contract.subject, "send"),
      });
      const startedAt = performance.now();
      const finish = <T>(result: Result<T>): Result<T> => {
        requested.inc({
          subject: contract.subject,
          outcome: result.ok ? "ok" : result.error.code,
        });
        requestSeconds.observe({ subject: contract.subject }, secondsSince(startedAt));
        return result;
      };
      return context.with(trace.setSpan(context.active(), span), async () => {
        const timeout = waitFor(
          requestOptions?.timeoutMs ?? contract.timeoutMs ?? defaultTimeoutMs,
          requestOptions?.deadline,
        );
        const unavailable = (reason: string, extra?: Record<string, unknown>) => {
          logger.warn({ subject: contract.subject, reason }, "request failed");
          const failure = appError("SERVICE_UNAVAILABLE", {
            subject: contract.subject,
            reason,
            ...extra,
          });
          endSpan(span, failure);
          return finish(fail<ReplyOf<typeof contract>>(failure));
        };
        if (!bus.isConnected()) return unavailable("nats disconnected");
        // one id for the request and its repetition: the logs of both instances tell one story
        const sent = { ...requestOptions, requestId: requestOptions?.requestId ?? randomUUID() };
        const repeat = contract.onSilence === "repeat";
        const outcome = await ask(replies, {
          subject: subjectOf(contract.subject),
          data: encoder.encode(JSON.stringify(body)),
          headers: () => outgoingHeaders(sent),
          timeoutMs: timeout,
          onSilence: contract.onSilence,
          // a request in flight when the connection drops fails as soon as that is known
          whileConnected: (lose) => {
            inFlight.add(lose);
            return () => inFlight.delete(lose);
          },
          repeating: () =>
            logger.warn({ subject: contract.subject }, "responder went silent; asking again"),
        });
        if (outcome === "lost") return unavailable("nats connection lost");
        if (outcome.kind !== "reply") {
          switch (outcome.kind) {
            case "timeout":
              return unavailable("timeout");
            case "no-responders":
              return unavailable("no responders");
            case "refused":
              return unavailable(describeRequestFailure(outcome.error));
            case "silent":
              // a request not safe to repeat may have done its work before its responder died
              return unavailable(
                "responder went silent",
                repeat ? undefined : { outcome: "unknown" },
              );
          }
        }
        const msg = outcome.msg;
        const result = parseReply(contract, msg);
        if (!result.ok && result.error.code === "INTERNAL") {
          logger.error({ subject: contract.subject }, "unreadable reply");
        }
        endSpan(span, result.ok ? undefined : result.error);
        return finish(result);
      });
    },

    async publish(event, body, requestOptions) {
      const parsed = event.schema.parse(body);
      const span = tracer.startSpan(`${event.subject} publish`, {
        kind: SpanKind.PRODUCER,
        attributes: {
          ...messagingAttributes(event.subject, "publish"),
          "messaging.message.id": parsed.id,
        },
      });
      try {
        await context.with(trace.setSpan(context.active(), span), () =>
          js.publish(subjectOf(event.subject), encoder.encode(JSON.stringify(parsed)), {
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
    },

    listen(event, handler) {
      return connection.subscribe(subjectOf(event.subject), {
        callback: (error, msg) => {
          if (error) {
            logger.error({ err: error, subject: event.subject }, "event subscription failed");
            return;
          }
          const ctx = handlerContext(msg, event.subject);
          // a failed handler is logged here and marks the span; nothing is rethrown
          void bus
            .consumed(event.subject, [msg.headers], async () => {
              const parsed = event.schema.safeParse(JSON.parse(decoder.decode(msg.data)));
              if (!parsed.success) {
                ctx.logger.error({ issues: parsed.error.issues }, "event breaks its schema");
                return;
              }
              await handler(parsed.data as EventOf<typeof event>, ctx);
            })
            .catch((failure: unknown) => {
              ctx.logger.error({ err: failure }, "event handler failed");
            });
        },
      });
    },

    async consumed(subject, headers, work) {
      const { span, spanContext } = consumerSpan(subject, headers);
      try {
        return await context.with(spanContext, () => work(span));
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: "processing failed" });
        throw error;
      } finally {
        span.end();
      }
    },

    onReconnect(callback) {
      reconnectCallbacks.push(callback);
    },

    async ensureEventStream() {
      await ensureStream(connection, {
        name: streamName,
        subjects: [subjectOf("evt.>")],
        num_replicas: bus.streamReplicas,
        duplicate_window: 2 * 60 * 1_000_000_000,
        max_age: 7 * 24 * 3600 * 1_000_000_000,
      });
    },

    jetstream: () => js,
    eventStreamName: () => streamName,

    async close() {
      await Promise.all(served.map((s) => s.stop()));
      await connection.drain();
    },
  };
  return bus;
}

const handled = counter(
  "pasarela_bus_handled_total",
  "Requests a service answered over NATS, by subject and outcome (ok or the catalogue code)",
  ["subject", "outcome"],
);
const handleSeconds = histogram(
  "pasarela_bus_handle_duration_seconds",
  "Time a service took to answer one request over NATS",
  ["subject"],
);
const requested = counter(
  "pasarela_bus_requests_total",
  "Requests a process sent over NATS, by subject and outcome (ok or the catalogue code)",
  ["subject", "outcome"],
);
const requestSeconds = histogram(
  "pasarela_bus_request_duration_seconds",
  "Time from sending a request over NATS to its reply (or failure)",
  ["subject"],
);

/** Error kinds that mean something failed (the span's status is ERROR), not a refused request. */
const FAILURE_KINDS = new Set(["internal", "upstream", "unavailable"]);

/** OpenTelemetry messaging attributes of a span over NATS. */
function messagingAttributes(
  subject: string,
  operation: "send" | "process" | "publish",
): Record<string, string> {
  return {
    "messaging.system": "nats",
    "messaging.destination.name": subject,
    "messaging.operation.type": operation === "publish" ? "send" : operation,
    "messaging.operation.name": operation === "send" ? "request" : operation,
  };
}

function describeRequestFailure(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    // the server refused this identity the subject: a deployment mistake, answered at once
    if (
      error.name === "PermissionViolationError" ||
      error.message.startsWith("Permissions Violation")
    )
      return `permission denied: ${error.message}`;
    if (cause instanceof Error && cause.name === "NoRespondersError") return "no responders";
    if (
      error.name === "TimeoutError" ||
      (cause instanceof Error && cause.name === "TimeoutError")
    ) {
      return "timeout";
    }
    return error.message;
  }
  return String(error);
}

function parseReply<C extends Contract>(contract: C, msg: Msg): Result<ReplyOf<C>> {
  let wire: unknown;
  try {
    wire = JSON.parse(decoder.decode(msg.data));
  } catch {
    return { ok: false, error: appError("INTERNAL") };
  }
  if (typeof wire !== "object" || wire === null || !("ok" in wire)) {
    return { ok: false, error: appError("INTERNAL") };
  }
  const reply = wire as WireReply;
  if (reply.ok) {
    const parsed = contract.reply.safeParse(reply.value);
    return parsed.success
      ? { ok: true, value: parsed.data as ReplyOf<C> }
      : { ok: false, error: appError("INTERNAL") };
  }
  const error = reply.error as Partial<AppError> | undefined;
  if (!error || !isErrorCode(error.code) || typeof error.message !== "string") {
    return { ok: false, error: appError("INTERNAL") };
  }
  return { ok: false, error: error as AppError };
}
