import {
  cursorKeyConfig,
  databaseConfig,
  natsConfig,
  parseConfig,
  telemetryConfig,
  z,
} from "@pasarela/config";

export const catalogConfigSchema = z.object({
  ...natsConfig,
  ...databaseConfig,
  ...telemetryConfig,
  ...cursorKeyConfig,
});

export type CatalogConfig = z.output<typeof catalogConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): CatalogConfig =>
  parseConfig(catalogConfigSchema, env);
