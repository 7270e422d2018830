import type { ErrorCode } from "@pasarela/errors";
import type { z } from "zod";

/**
 * One NATS request/reply subject: its name, the schemas both sides parse with, and the
 * catalogue codes its handler may answer (besides the bus's own INTERNAL, INVALID_FIELD and
 * SERVICE_UNAVAILABLE, and UNAUTHORIZED where the subject needs an account).
 */
export interface Contract<
  Req extends z.ZodType = z.ZodType,
  Rep extends z.ZodType = z.ZodType,
  E extends ErrorCode = ErrorCode,
  A extends boolean = boolean,
> {
  readonly subject: string;
  readonly request: Req;
  readonly reply: Rep;
  readonly errors: readonly E[];
  /** how long a caller waits for the reply; longer for subjects that call the authority */
  readonly timeoutMs?: number;
  /**
   * What the caller does when the instance serving the request falls silent before the
   * deadline (it died: no progress message for NATS_SILENCE_TIMEOUT_MS):
   * - "repeat": asking twice does no harm (a query), another instance is asked once more;
   * - "unknown": answer at once that the outcome is unknown; the caller knows how to settle it
   *   (an issuance: a retry with the same Idempotency-Key).
   * Absent, the caller waits out the deadline: a handler that keeps its process busy for
   * seconds (signing with a large key, say) is never taken for dead.
   */
  readonly onSilence?: "repeat" | "unknown";
  /**
   * The request acts for one account, named by the request's account header (the edge sends
   * the authenticated caller's). The bus answers UNAUTHORIZED to one that names none, before
   * the handler runs, and the handler's context then types the account as always present.
   */
  readonly needsAccount?: A;
}

export function defineContract<
  Req extends z.ZodType,
  Rep extends z.ZodType,
  E extends ErrorCode = never,
  A extends boolean = false,
>(contract: Contract<Req, Rep, E, A>): Contract<Req, Rep, E, A> {
  return contract;
}

/** True of a contract declared with `needsAccount: true`. */
export type NeedsAccount<C> =
  C extends Contract<z.ZodType, z.ZodType, ErrorCode, infer A>
    ? [A] extends [true]
      ? true
      : false
    : false;

/**
 * An event in the EVENTS stream. Bodies carry an `id` that is also the JetStream msgID, so a
 * republished event is de-duplicated by the server.
 */
export interface EventContract<S extends z.ZodType<{ id: string }> = z.ZodType<{ id: string }>> {
  readonly subject: `evt.${string}`;
  readonly version: number;
  readonly schema: S;
}

export function defineEvent<S extends z.ZodType<{ id: string }>>(
  event: EventContract<S>,
): EventContract<S> {
  return event;
}

/**
 * A unit of work on a JetStream work-queue stream (`job.>` subjects, never a request subject):
 * consumed once by one instance, redelivered until acknowledged. `id` is also the msgID.
 */
export interface JobContract<S extends z.ZodType<{ id: string }> = z.ZodType<{ id: string }>> {
  readonly subject: `job.${string}`;
  /** the stream's name (before the deployment prefix) */
  readonly stream: string;
  readonly schema: S;
}

export function defineJob<S extends z.ZodType<{ id: string }>>(
  job: JobContract<S>,
): JobContract<S> {
  return job;
}

export type RequestOf<C> =
  C extends Contract<infer Req, z.ZodType, ErrorCode, boolean> ? z.input<Req> : never;
export type ParsedRequestOf<C> =
  C extends Contract<infer Req, z.ZodType, ErrorCode, boolean> ? z.output<Req> : never;
export type ReplyOf<C> =
  C extends Contract<z.ZodType, infer Rep, ErrorCode, boolean> ? z.output<Rep> : never;
export type ReplyInputOf<C> =
  C extends Contract<z.ZodType, infer Rep, ErrorCode, boolean> ? z.input<Rep> : never;
export type ErrorsOf<C> = C extends Contract<z.ZodType, z.ZodType, infer E, boolean> ? E : never;
export type EventOf<E> = E extends EventContract<infer S> ? z.output<S> : never;
export type JobOf<J> = J extends JobContract<infer S> ? z.output<S> : never;
