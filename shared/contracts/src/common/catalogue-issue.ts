import { isErrorCode, type AppError } from "@pasarela/errors";

/**
 * A schema refinement whose refusal is a catalogue error of its own (not "El campo … es
 * inválido") carries that error in the issue's params; both sides of a contract answer it as
 * is: the edge's error handler and the bus that parses requests for a handler.
 */
export function issueParams(error: AppError): { appError: AppError } {
  return { appError: error };
}

/** The catalogue error a contract schema attached to this issue, if any. */
export function attachedError(issue: { code: string; params?: unknown }): AppError | undefined {
  if (issue.code !== "custom") return undefined;
  const params = issue.params as { appError?: Partial<AppError> } | undefined;
  const error = params?.appError;
  return error && isErrorCode(error.code) && typeof error.message === "string"
    ? (error as AppError)
    : undefined;
}
