import { randomUUID } from "node:crypto";
import { context, SpanKind, trace } from "@opentelemetry/api";
import type { Msg } from "@nats-io/nats-core";
import type { Contract, NeedsAccount, ParsedRequestOf, ReplyInputOf } from "@pasarela/contracts";
import { attachedError, healthContract } from "@pasarela/contracts";
import { appError, invalidField, type AppError, type Result } from "@pasarela/errors";
import { counter, histogram, secondsSince } from "@pasarela/telemetry";
import type { z } from "zod";
import { keepRequesterInformed } from "./liveness.js";
import {
  accountOf,
  contextFrom,
  decoder,
  encoder,
  endSpan,
  handlerContext,
  messagingAttributes,
  type BusCore,
  type HandlerContext,
  type WireReply,
} from "./wire.js";

/** The serving side of request/reply: subscriptions per subject, each answered by its handler. */

/** The context of a request to a subject that needs an account: the bus checked it is there. */
export interface AccountContext extends HandlerContext {
  readonly accountId: string;
}

/** What the handler of `C` knows beyond the body: the account is certain where `C` needs one. */
export type ContextOf<C> = NeedsAccount<C> extends true ? AccountContext : HandlerContext;

export type Handler<C extends Contract> = (
  request: ParsedRequestOf<C>,
  ctx: ContextOf<C>,
) => Promise<Result<ReplyInputOf<C>>>;

export interface Binding {
  readonly contract: Contract;
  readonly handler: (
    request: unknown,
    ctx: HandlerContext,
  ) => Promise<Result<ReplyInputOf<Contract>>>;
}

/** Pairs a contract with its handler, typed against each other. */
export function bind<C extends Contract>(contract: C, handler: Handler<C>): Binding {
  // the request is parsed with the contract's schema, and the account checked where the
  // contract needs one (replyTo), before the handler is called
  return { contract, handler: handler as Binding["handler"] };
}

export interface ServeOptions {
  /** service name: the queue group and the `<name>.health.get` subject */
  name: string;
  version?: string;
  /** extra readiness condition (for example the database answers) */
  ready?: () => Promise<boolean>;
}

export interface Served {
  /**
   * Stops taking requests (the subscriptions are drained: the server sends new ones to the
   * other instances of the queue group) and resolves once every request already taken has
   * been answered. A second call returns the same promise.
   */
  stop: () => Promise<void>;
  /** requests taken whose handler has not answered yet */
  inFlight: () => number;
}

function describeIssue(issue: z.core.$ZodIssue): AppError {
  const attached = attachedError(issue);
  if (attached) return attached;
  const field = issue.path.length > 0 ? issue.path.join(".") : "(cuerpo)";
  return invalidField(field, issue.message);
}

function encodeReply(reply: WireReply): Uint8Array {
  return encoder.encode(JSON.stringify(reply));
}

/** The reply to one request: the handler's answer, checked against the contract both ways. */
async function replyTo(
  core: BusCore,
  binding: Binding,
  msg: Msg,
  ctx: HandlerContext,
): Promise<WireReply> {
  const { contract } = binding;
  // the one answer to a request for an account that names none: its handler never runs
  if (contract.needsAccount && ctx.accountId === undefined) {
    return { ok: false, error: appError("UNAUTHORIZED") };
  }
  try {
    const raw: unknown = msg.data.length === 0 ? {} : JSON.parse(decoder.decode(msg.data));
    const parsed = contract.request.safeParse(raw);
    if (!parsed.success) return { ok: false, error: describeIssue(parsed.error.issues[0]!) };
    const result = await binding.handler(parsed.data, ctx);
    if (!result.ok) return { ok: false, error: result.error };
    const checked = contract.reply.safeParse(result.value);
    if (checked.success) return { ok: true, value: checked.data };
    ctx.logger.error({ issues: checked.error.issues }, "handler reply breaks its contract");
    return { ok: false, error: appError("INTERNAL") };
  } catch (error) {
    const classified = core.classifyFailure?.(error);
    if (classified) {
      ctx.logger.warn({ err: error, code: classified.code }, "handler failed: dependency");
      return { ok: false, error: classified };
    }
    ctx.logger.error({ err: error }, "handler failed");
    return { ok: false, error: appError("INTERNAL") };
  }
}

// The core client catches only synchronous throws from callbacks: every handler runs here,
// inside a promise whose rejection becomes an INTERNAL reply and a logged bug.
async function handle(core: BusCore, binding: Binding, msg: Msg): Promise<void> {
  const { contract } = binding;
  const { logger, tracer } = core;
  const parentContext = contextFrom(msg.headers);
  const accountId = accountOf(msg);
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
    const ctx = handlerContext(msg, contract.subject, logger);
    const reply = await replyTo(core, binding, msg, ctx);
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

/**
 * Answers the bindings' subjects, and `<name>.health.get`, in the service's queue group: one
 * instance of the service answers each request.
 */
export function serve(
  core: BusCore,
  serveOptions: ServeOptions,
  bindings: readonly Binding[],
): Served {
  const { connection, logger, liveness } = core;
  const instance = randomUUID();
  // the requests taken and not answered yet: stop() waits for them
  const running = new Set<Promise<void>>();
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
    connection.subscribe(core.subjectOf(binding.contract.subject), {
      queue: serveOptions.name,
      callback: (error, msg) => {
        if (error) {
          logger.error({ err: error, subject: binding.contract.subject }, "subscription failed");
          return;
        }
        // the caller hears from this process while the handler runs (liveness.ts); a
        // progress message that slips out after the reply is dropped by the caller
        const informed = keepRequesterInformed(msg, liveness.progressIntervalMs);
        const answered = handle(core, binding, msg)
          .catch((failure: unknown) => logger.error({ err: failure }, "reply could not be sent"))
          .finally(informed);
        running.add(answered);
        void answered.finally(() => running.delete(answered));
      },
    }),
  );
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        // drain: the server stops sending this instance requests, and those it already sent
        // reach their handlers; then every handler running answers before this resolves
        await Promise.all(subscriptions.filter((s) => !s.isClosed()).map((s) => s.drain()));
        while (running.size > 0) await Promise.all(running);
      })();
      return stopped;
    },
    inFlight: () => running.size,
  };
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
