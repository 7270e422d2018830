import {
  cursorKeyConfig,
  databaseConfig,
  envInt,
  natsConfig,
  parseConfig,
  telemetryConfig,
  z,
} from "@pasarela/config";

export const billingConfigSchema = z.object({
  ...natsConfig,
  ...databaseConfig,
  ...telemetryConfig,
  ...cursorKeyConfig,
  /** key of the HMAC that API-key secrets are stored under; never stored with them */
  API_KEY_PEPPER: z
    .string({ error: "is required (32+ random bytes, base64)" })
    .min(32, "must be at least 32 characters (32+ random bytes, base64)"),
  /** how long an Idempotency-Key is kept; at least 24 h */
  IDEMPOTENCY_TTL_MS: envInt().pipe(z.number().min(86_400_000)).default(86_400_000),
  /**
   * how long an issuance's key stays bound to it without word from its process: the attempt
   * extends it every third while it runs, so a repeat of the key answers 409 while the attempt
   * lives and is looked up instead at most this long after its process died
   */
  IDEMPOTENCY_LEASE_MS: envInt().pipe(z.number().min(3_000)).default(15_000),
  /** how long an unreported quota reservation holds quota (a crash never leaks it) */
  QUOTA_RESERVATION_TTL_MS: envInt().pipe(z.number().min(1_000)).default(600_000),
  /** how often expired reservations, keys and old usage history are swept */
  BILLING_SWEEP_INTERVAL_MS: envInt().pipe(z.number().min(100)).default(60_000),
  /** months of usage history kept */
  USAGE_RETENTION_MONTHS: envInt().pipe(z.number().min(1)).default(13),
  /** failed dashboard logins of one e-mail address within the window before it is throttled */
  LOGIN_MAX_FAILURES_PER_EMAIL: envInt().pipe(z.number().min(1)).default(5),
  /** failed dashboard logins from one IP within the window before it is throttled */
  LOGIN_MAX_FAILURES_PER_IP: envInt().pipe(z.number().min(1)).default(20),
  /** the login throttle's rolling window */
  LOGIN_THROTTLE_WINDOW_MS: envInt().pipe(z.number().min(1_000)).default(900_000),
  /** how long a password-reset link works */
  PASSWORD_RESET_TTL_MS: envInt().pipe(z.number().min(60_000)).default(3_600_000),
});

export type BillingConfig = z.output<typeof billingConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): BillingConfig =>
  parseConfig(billingConfigSchema, env);
