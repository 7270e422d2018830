/** The clock and the lifetimes billing's admission works with (config, or a test's own). */
export interface AccountingSettings {
  now: () => Date;
  /** how long an unreported reservation holds quota (a crash never leaks it) */
  reservationTtlMs: number;
  /** how long an Idempotency-Key answers 409 while its first request is worked on */
  issuanceLeaseMs: number;
  /** how long an Idempotency-Key is kept (≥ 24 h) */
  idempotencyTtlMs: number;
}
