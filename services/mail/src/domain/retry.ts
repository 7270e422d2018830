/** How a delivery attempt ended, as the SMTP adapter classifies it. */
export type DeliveryResult =
  | { readonly kind: "sent" }
  /** 4xx or no connection: the same message may go through later */
  | { readonly kind: "temporary"; readonly error: string }
  /** 5xx or a message that cannot be built: retrying changes nothing */
  | { readonly kind: "permanent"; readonly error: string };

export interface RetryPolicy {
  readonly retryForMs: number;
  readonly baseMs: number;
  readonly maxDelayMs: number;
}

export type NextStep =
  | { readonly kind: "sent" }
  | { readonly kind: "retry"; readonly delayMs: number }
  | { readonly kind: "failed"; readonly error: string };

/**
 * Exponential backoff (base × 2^(attempt−1), capped) while the next attempt still falls within
 * `retryForMs` of when the e-mail was queued; after that a temporary failure is final too.
 */
export function nextStep(
  result: DeliveryResult,
  attempt: number,
  queuedAt: number,
  now: number,
  policy: RetryPolicy,
): NextStep {
  if (result.kind === "sent") return result;
  if (result.kind === "permanent") return { kind: "failed", error: result.error };
  const delayMs = Math.min(policy.baseMs * 2 ** Math.min(attempt - 1, 30), policy.maxDelayMs);
  if (now + delayMs - queuedAt > policy.retryForMs) {
    return { kind: "failed", error: result.error };
  }
  return { kind: "retry", delayMs };
}
