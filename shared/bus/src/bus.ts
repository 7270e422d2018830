import { readFileSync } from "node:fs";
import type { Span, Tracer } from "@opentelemetry/api";
import { jetstream, type JetStreamClient } from "@nats-io/jetstream";
import {
  credsAuthenticator,
  type MsgHdrs,
  type NatsConnection,
  type Subscription,
} from "@nats-io/nats-core";
import { connect } from "@nats-io/transport-node";
import type {
  Contract,
  EventContract,
  EventOf,
  JobContract,
  JobOf,
  ReplyOf,
  RequestOf,
} from "@pasarela/contracts";
import { eventStreamOf, natsInboxOf } from "@pasarela/contracts";
import type { AppError, Result } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import { stopDurables } from "./durables.js";
import { consumed, ensureEventStream, publish } from "./jetstream.js";
import { checkLiveness, defaultLiveness, makeReplyMux, type Liveness } from "./liveness.js";
import { request } from "./request.js";
import { serve, type Binding, type Served, type ServeOptions } from "./serve.js";
import { listen } from "./subscriptions.js";
import type { BusCore, HandlerContext, RequestOptions } from "./wire.js";

export {
  bind,
  type AccountContext,
  type Binding,
  type ContextOf,
  type Handler,
  type Served,
  type ServeOptions,
} from "./serve.js";
export type { HandlerContext, RequestOptions } from "./wire.js";

export interface Bus {
  readonly connection: NatsConnection;
  /** the connection's name: the service it belongs to */
  readonly name: string;
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
  /**
   * Stops taking work: request subscriptions are drained (the queue group's other instances
   * get the requests sent from now on) and durable consumers fetch no more. Resolves true once
   * every request taken has been answered and every batch taken settled, or false at `boundMs`
   * with some still running. The connection stays open (replies, acks) until close().
   */
  drain(boundMs?: number): Promise<boolean>;
  /**
   * Drains (waiting for the work taken, unless a bounded drain() came first) and closes the
   * connection once the messages it still has to send are sent.
   */
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

export async function connectBus(options: BusOptions): Promise<Bus> {
  const credentials = options.credentials;
  const liveness = checkLiveness({ ...defaultLiveness, ...options.liveness });
  const inboxPrefix =
    credentials && "user" in credentials ? natsInboxOf(credentials.user) : undefined;
  const connection = await connect({
    // NATS_URL may list the servers of a cluster, comma-separated: any one of them will do
    servers: natsServers(options.url),
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

  const core: BusCore = {
    connection,
    replies,
    liveness,
    subjectOf,
    logger,
    tracer,
    defaultTimeoutMs,
    isConnected: () => connected && !connection.isClosed(),
    inFlight,
    classifyFailure: options.classifyFailure,
  };
  const streamReplicas = options.streamReplicas ?? 1;
  const processed: Bus["consumed"] = (subject, headers, work) =>
    consumed(core, subject, headers, work);

  let draining: Promise<void> | undefined;
  let bounded = false;
  const stopTaking = (): Promise<void> => {
    draining ??= Promise.all([...served.map((s) => s.stop()), stopDurables(bus)]).then(() => {});
    return draining;
  };

  const bus: Bus = {
    connection,
    name: options.name,
    prefix,
    streamReplicas,
    isConnected: core.isConnected,
    serve(serveOptions, bindings) {
      const handle = serve(core, serveOptions, bindings);
      served.push(handle);
      return handle;
    },
    request: (contract, body, requestOptions) => request(core, contract, body, requestOptions),
    publish: (event, body, requestOptions) => publish(core, js, event, body, requestOptions),
    listen: (event, handler) => listen(core, processed, event, handler),
    consumed: processed,
    onReconnect(callback) {
      reconnectCallbacks.push(callback);
    },
    ensureEventStream: () => ensureEventStream(core, streamName, streamReplicas),
    jetstream: () => js,
    eventStreamName: () => streamName,
    async drain(boundMs) {
      const stopping = stopTaking();
      if (boundMs === undefined || !Number.isFinite(boundMs)) {
        await stopping;
        return true;
      }
      bounded = true;
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        stopping.then(() => true),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), boundMs);
        }),
      ]);
      clearTimeout(timer);
      return finished;
    },
    async close() {
      if (!bounded) await stopTaking();
      if (connection.isClosed()) return;
      await connection.drain().catch(async (error: unknown) => {
        // the server is unreachable: nothing can be sent to it, the connection just closes
        logger.warn({ err: error }, "nats drain failed: connection closed");
        if (!connection.isClosed()) await connection.close();
      });
    },
  };
  return bus;
}

/** The servers a NATS_URL names: one URL, or several separated by commas (a cluster). */
export function natsServers(url: string): string[] {
  return url
    .split(",")
    .map((server) => server.trim())
    .filter((server) => server.length > 0);
}
