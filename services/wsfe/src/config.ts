import {
  authorityConfig,
  cursorKeyConfig,
  databaseConfig,
  envDuration,
  keyEncryptionConfig,
  natsConfig,
  parseConfig,
  telemetryConfig,
  z,
} from "@pasarela/config";

export const wsfeConfigSchema = z
  .object({
    ...natsConfig,
    ...databaseConfig,
    ...telemetryConfig,
    ...cursorKeyConfig,
    // the CAEAs obtained for contingency are sealed at rest
    ...keyEncryptionConfig,
    WSFE_URL_HOMOLOGACION: authorityConfig.WSFE_URL_HOMOLOGACION,
    WSFE_URL_PRODUCCION: authorityConfig.WSFE_URL_PRODUCCION,
    // export vouchers are issued here too, through WSFEXv1
    WSFEX_URL_HOMOLOGACION: authorityConfig.WSFEX_URL_HOMOLOGACION,
    WSFEX_URL_PRODUCCION: authorityConfig.WSFEX_URL_PRODUCCION,
    AUTHORITY_TIMEOUT_MS: authorityConfig.AUTHORITY_TIMEOUT_MS,
    AUTHORITY_CA_FILE: authorityConfig.AUTHORITY_CA_FILE,
    /** how often vouchers left pending or unknown are reconciled without waiting for an issuance (also once at start-up) */
    RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1_000).default(60_000),
    /**
     * A series' writer lease: how long it lasts unrenewed, which is how long a wsfe instance
     * that died blocks its series before another one takes it over.
     */
    SERIES_LEASE_MS: z.coerce.number().int().min(1_000).default(5_000),
    /** how often a held lease is renewed, on a timer of its own (at least three times a lease) */
    SERIES_HEARTBEAT_MS: z.coerce.number().int().min(100).default(1_000),
    /**
     * How long an asynchronous issuance (Prefer: respond-async) keeps being retried through
     * authority failures before it ends `no_emitido` (72h, 30m, 45s, or milliseconds).
     */
    ASYNC_ISSUANCE_MAX_AGE: envDuration().default(72 * 3_600_000),
    /** the longest wait between two attempts of an asynchronous issuance */
    ASYNC_ISSUANCE_RETRY_MAX: envDuration().default(300_000),
    /** how often each instance looks for due asynchronous issuances it was not told about */
    ASYNC_ISSUANCE_POLL_MS: z.coerce.number().int().min(50).default(1_000),
    /**
     * How often the CAEA of the current and the next fortnight is asked for, for every
     * representada with CAEA contingency on, until the authority grants it.
     */
    CAEA_CHECK_INTERVAL_MS: z.coerce.number().int().min(1_000).default(600_000),
    /**
     * How often the vouchers issued under a CAEA and not informed yet are informed
     * (FECAEARegInformativo), the no-movement declarations made and the FchTopeInf alert
     * checked (also once at start-up). A series whose informing failed waits this long, doubling
     * with each failure up to CAEA_INFORM_RETRY_MAX.
     */
    CAEA_INFORM_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
    /** the longest wait between two informing attempts of a series that keeps failing */
    CAEA_INFORM_RETRY_MAX: envDuration().default(900_000),
    /**
     * How long one informing call to the authority may take (at most AUTHORITY_TIMEOUT_MS): the
     * series' lease is held meanwhile, so contingency issuance on that point of sale waits at
     * most about this long behind an informing the authority does not answer.
     */
    CAEA_INFORM_TIMEOUT_MS: z.coerce.number().int().min(100).default(8_000),
    /** asynchronous issuances one instance carries out at once */
    ASYNC_ISSUANCE_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(64),
  })
  .refine((c) => c.SERIES_HEARTBEAT_MS * 3 <= c.SERIES_LEASE_MS, {
    path: ["SERIES_HEARTBEAT_MS"],
    message: "must be at most a third of SERIES_LEASE_MS",
  });

export type WsfeConfig = z.output<typeof wsfeConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): WsfeConfig =>
  parseConfig(wsfeConfigSchema, env);
