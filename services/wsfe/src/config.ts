import {
  authorityConfig,
  cursorKeyConfig,
  databaseConfig,
  natsConfig,
  parseConfig,
  telemetryConfig,
  z,
} from "@pasarela/config";

const wsfeConfigSchema = z.object({
  ...natsConfig,
  ...databaseConfig,
  ...telemetryConfig,
  ...cursorKeyConfig,
  WSFE_URL_HOMOLOGACION: authorityConfig.WSFE_URL_HOMOLOGACION,
  WSFE_URL_PRODUCCION: authorityConfig.WSFE_URL_PRODUCCION,
  AUTHORITY_TIMEOUT_MS: authorityConfig.AUTHORITY_TIMEOUT_MS,
  AUTHORITY_CA_FILE: authorityConfig.AUTHORITY_CA_FILE,
  /** how often vouchers left pending or unknown are reconciled without waiting for an issuance */
  RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1_000).default(60_000),
});

export type WsfeConfig = z.output<typeof wsfeConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): WsfeConfig =>
  parseConfig(wsfeConfigSchema, env);
