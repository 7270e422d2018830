import type { AppError, Result } from "@pasarela/errors";

/**
 * Carries a catalogue error from a route to the single error handler. Routes throw it (the
 * fastify idiom); services never do: they answer Result values.
 */
export class EdgeError extends Error {
  override name = "EdgeError";
  constructor(readonly appError: AppError) {
    super(appError.message);
  }
}

export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new EdgeError(result.error);
}
