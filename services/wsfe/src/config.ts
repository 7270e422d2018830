import {
  authorityConfig,
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
  WSFE_URL_HOMOLOGACION: authorityConfig.WSFE_URL_HOMOLOGACION,
  WSFE_URL_PRODUCCION: authorityConfig.WSFE_URL_PRODUCCION,
  AUTHORITY_TIMEOUT_MS: authorityConfig.AUTHORITY_TIMEOUT_MS,
  AUTHORITY_CA_FILE: authorityConfig.AUTHORITY_CA_FILE,
});

export type WsfeConfig = z.output<typeof wsfeConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): WsfeConfig =>
  parseConfig(wsfeConfigSchema, env);
