import { authorityConfig, natsConfig, parseConfig, telemetryConfig, z } from "@pasarela/config";

export const wsfexConfigSchema = z.object({
  ...natsConfig,
  ...telemetryConfig,
  WSFEX_URL_HOMOLOGACION: authorityConfig.WSFEX_URL_HOMOLOGACION,
  WSFEX_URL_PRODUCCION: authorityConfig.WSFEX_URL_PRODUCCION,
  AUTHORITY_TIMEOUT_MS: authorityConfig.AUTHORITY_TIMEOUT_MS,
  AUTHORITY_CA_FILE: authorityConfig.AUTHORITY_CA_FILE,
});

export type WsfexConfig = z.output<typeof wsfexConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): WsfexConfig =>
  parseConfig(wsfexConfigSchema, env);
