import { randomUUID } from "node:crypto";
import { context, SpanKind, trace } from "@opentelemetry/api";
import type { Msg } from "@nats-io/nats-core";
import type { Contract, ReplyOf, RequestOf } from "@pasarela/contracts";
import { DEADLINE_SLACK_MS } from "@pasarela/contracts";
import { appError, fail, isErrorCode, type AppError, type Result } from "@pasarela/errors";
import { counter, histogram, secondsSince } from "@pasarela/telemetry";
import { ask } from "./liveness.js";
import {
  decoder,
  encoder,
  endSpan,
  messagingAttributes,
  outgoingHeaders,
  type BusCore,
  type RequestOptions,
  type WireReply,
} from "./wire.js";

/** The asking side of request/reply: one request, its reply or the reason there is none. */

/** The wait for a reply, never past the deadline's slack. */
function waitFor(timeoutMs: number, deadline: number | undefined): number {
  if (deadline === undefined) return timeoutMs;
  return Math.min(timeoutMs, Math.max(deadline - Date.now(), 0) + DEADLINE_SLACK_MS);
}

/**
 * Sends one request under a CLIENT span and waits for its reply. Every way of getting no
 * reply (disconnected, no responders, timeout, refused, a responder gone silent) is
 * SERVICE_UNAVAILABLE with the reason in its details.
 */
export async function request<C extends Contract>(
  core: BusCore,
  contract: C,
  body: RequestOf<C>,
  requestOptions: RequestOptions | undefined,
): Promise<Result<ReplyOf<C>>> {
  const { logger, tracer } = core;
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
      requestOptions?.timeoutMs ?? contract.timeoutMs ?? core.defaultTimeoutMs,
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
      return finish(fail<ReplyOf<C>>(failure));
    };
    if (!core.isConnected()) return unavailable("nats disconnected");
    // one id for the request and its repetition: the logs of both instances tell one story
    const sent = { ...requestOptions, requestId: requestOptions?.requestId ?? randomUUID() };
    const repeat = contract.onSilence === "repeat";
    const outcome = await ask(core.replies, {
      subject: core.subjectOf(contract.subject),
      data: encoder.encode(JSON.stringify(body)),
      headers: () => outgoingHeaders(sent),
      timeoutMs: timeout,
      onSilence: contract.onSilence,
      // a request in flight when the connection drops fails as soon as that is known
      whileConnected: (lose) => {
        core.inFlight.add(lose);
        return () => core.inFlight.delete(lose);
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
          return unavailable("responder went silent", repeat ? undefined : { outcome: "unknown" });
      }
    }
    const result = parseReply(contract, outcome.msg);
    if (!result.ok && result.error.code === "INTERNAL") {
      logger.error({ subject: contract.subject }, "unreadable reply");
    }
    endSpan(span, result.ok ? undefined : result.error);
    return finish(result);
  });
}

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
