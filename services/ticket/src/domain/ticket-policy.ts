/** What the ticket service knows about one (certificate, service) pair. */
export interface StoredTicketState {
  /** expiry of the stored TA; undefined when none was ever stored */
  readonly expiresAt: Date | undefined;
  /** no login before this instant: the authority refused the previous one */
  readonly retryAt: Date | undefined;
  /** the authority said it holds a TA we do not have; a new one can be had from here on */
  readonly pendingUntil: Date | undefined;
}

export interface TicketPolicy {
  readonly refreshAheadMs: number;
  readonly minRemainingMs: number;
}

export type TicketDecision =
  /** the stored TA has plenty of life left */
  | { readonly action: "serve" }
  /** log in; `fallback` says whether the stored TA may still be answered if that fails */
  | { readonly action: "login"; readonly fallback: boolean }
  /** a recent login was refused: do not call the authority again yet */
  | { readonly action: "wait"; readonly fallback: boolean; readonly availableAt: Date };

/**
 * The refresh rule, pure so it can be tested without clocks: serve a TA while more than
 * `refreshAheadMs` is left; inside that window try to renew (the authority refuses with
 * coe.alreadyAuthenticated while the old one lives) and keep serving the old one until only
 * `minRemainingMs` is left; after a refusal wait until `retryAt` instead of logging in again.
 */
export function decide(state: StoredTicketState, now: Date, policy: TicketPolicy): TicketDecision {
  const remaining =
    state.expiresAt === undefined ? -Infinity : state.expiresAt.getTime() - now.getTime();
  if (remaining > policy.refreshAheadMs) return { action: "serve" };
  const fallback = remaining > policy.minRemainingMs;
  // a throttled renewal never blocks a login once the old TA is gone, unless the authority
  // itself said it holds a valid one (pendingUntil)
  const throttled =
    state.retryAt !== undefined &&
    state.retryAt > now &&
    (fallback || state.pendingUntil !== undefined);
  if (throttled) {
    const availableAt =
      state.pendingUntil !== undefined && state.pendingUntil > state.retryAt
        ? state.pendingUntil
        : state.retryAt;
    return { action: "wait", fallback, availableAt };
  }
  return { action: "login", fallback };
}

/** The latest a TA the authority holds (and we lack) can still be valid: WSAA issues 12 h. */
export const TA_LIFETIME_MS = 12 * 3600_000;
