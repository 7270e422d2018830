import { catalogue, type ErrorCode, type ErrorKind } from "./catalogue.js";

/**
 * An expected failure, as a value. It crosses NATS as JSON unchanged, so it holds only data:
 * the catalogue code, the final message, and optional structured details for the caller.
 */
export interface AppError {
  readonly code: ErrorCode;
  readonly message: string;
  readonly details?: Record<string, unknown>;
}

export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: AppError): Result<T> => ({ ok: false, error });

/** An error with the catalogue's fixed message. */
export function appError(code: ErrorCode, details?: Record<string, unknown>): AppError {
  return details === undefined
    ? { code, message: catalogue[code].message }
    : { code, message: catalogue[code].message, details };
}

export function kindOf(code: ErrorCode): ErrorKind {
  return catalogue[code].kind;
}

export function isRetryable(code: ErrorCode): boolean {
  return catalogue[code].retryable;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(catalogue, value);
}
