import { envInt, envPort, natsConfig, parseConfig, telemetryConfig, z } from "@pasarela/config";

export const edgeConfigSchema = z.object({
  ...natsConfig,
  ...telemetryConfig,
  EDGE_PORT: envPort().default(3000),
  EDGE_HOST: z.string().default("127.0.0.1"),
  /** largest JSON body accepted, in bytes */
  EDGE_BODY_LIMIT: envInt().pipe(z.number().min(1024)).default(1_048_576),
  /** upper bound on how long a verified key is trusted without asking billing again */
  EDGE_KEY_CACHE_TTL_MS: envInt().pipe(z.number().min(0)).default(300_000),
  /**
   * the longest an API call waits for the service behind it (each subject may wait less);
   * every call's deadline derives from it, so keep it under a proxy's idle timeout in front
   */
  API_TIMEOUT_MS: envInt().pipe(z.number().min(5_000)).default(65_000),
});

export type EdgeConfig = z.output<typeof edgeConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): EdgeConfig =>
  parseConfig(edgeConfigSchema, env);
