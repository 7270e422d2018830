import {
  authorityConfig,
  databaseConfig,
  envInt,
  natsConfig,
  parseConfig,
  telemetryConfig,
  z,
  keyEncryptionConfig,
} from "@pasarela/config";

export const ticketConfigSchema = z.object({
  ...natsConfig,
  ...databaseConfig,
  ...telemetryConfig,
  WSAA_URL_HOMOLOGACION: authorityConfig.WSAA_URL_HOMOLOGACION,
  WSAA_URL_PRODUCCION: authorityConfig.WSAA_URL_PRODUCCION,
  AUTHORITY_TIMEOUT_MS: authorityConfig.AUTHORITY_TIMEOUT_MS,
  AUTHORITY_CA_FILE: authorityConfig.AUTHORITY_CA_FILE,
  /** AES-256-GCM key sealing private keys, tokens and signs at rest; never stored with them */
  KEY_ENCRYPTION_KEY: keyEncryptionConfig.KEY_ENCRYPTION_KEY,
  /** a stored TA with less than this left is renewed (when the authority allows it) */
  TA_REFRESH_AHEAD_MS: envInt().pipe(z.number().min(0)).default(300_000),
  /** a TA is handed out only while it has at least this left, for clock skew and transit */
  TA_MIN_REMAINING_MS: envInt().pipe(z.number().min(0)).default(30_000),
  /** pause between logins for one certificate and service after the authority refused one */
  TA_RETRY_AFTER_MS: envInt().pipe(z.number().min(0)).default(60_000),
  /** how often active certificates are checked for expiry notices (30, 7, 1 days; expired) */
  CERTIFICATE_EXPIRY_INTERVAL_MS: envInt().pipe(z.number().min(1_000)).default(3_600_000),
});

export type TicketConfig = z.output<typeof ticketConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): TicketConfig =>
  parseConfig(ticketConfigSchema, env);
