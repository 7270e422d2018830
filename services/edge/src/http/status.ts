import { kindOf, type AppError, type ErrorKind } from "@pasarela/errors";

/**
 * The one place where an error kind becomes an HTTP status. NATS no-responders and
 * timeouts are the gateway's own outage ("unavailable"), never a 4xx.
 */
export const statusOfKind: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  quota: 402,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  rejected: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  upstream: 502,
  unavailable: 503,
};

/** The HTTP status of a catalogued error: its kind's. */
export const statusOf = (error: Pick<AppError, "code">): number => statusOfKind[kindOf(error.code)];

/**
 * The Retry-After header of an error that says when to try again (the rejection cap, login
 * throttling): whole seconds, or undefined when it does not say.
 */
export function retryAfterOf(error: Pick<AppError, "details">): string | undefined {
  const seconds = error.details?.retryAfterSeconds;
  return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0
    ? String(Math.ceil(seconds))
    : undefined;
}
