import { authorityConfig, natsConfig, parseConfig, telemetryConfig, z } from "@pasarela/config";

export const padronConfigSchema = z.object({
  ...natsConfig,
  ...telemetryConfig,
  PADRON_A13_URL_HOMOLOGACION: authorityConfig.PADRON_A13_URL_HOMOLOGACION,
  PADRON_A13_URL_PRODUCCION: authorityConfig.PADRON_A13_URL_PRODUCCION,
  PADRON_A10_URL_HOMOLOGACION: authorityConfig.PADRON_A10_URL_HOMOLOGACION,
  PADRON_A10_URL_PRODUCCION: authorityConfig.PADRON_A10_URL_PRODUCCION,
  PADRON_CONSTANCIA_URL_HOMOLOGACION: authorityConfig.PADRON_CONSTANCIA_URL_HOMOLOGACION,
  PADRON_CONSTANCIA_URL_PRODUCCION: authorityConfig.PADRON_CONSTANCIA_URL_PRODUCCION,
  AUTHORITY_TIMEOUT_MS: authorityConfig.AUTHORITY_TIMEOUT_MS,
  AUTHORITY_CA_FILE: authorityConfig.AUTHORITY_CA_FILE,
});

export type PadronConfig = z.output<typeof padronConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): PadronConfig =>
  parseConfig(padronConfigSchema, env);
