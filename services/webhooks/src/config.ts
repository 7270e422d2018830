import {
  databaseConfig,
  envInt,
  keyEncryptionConfig,
  natsConfig,
  parseConfig,
  telemetryConfig,
  z,
} from "@pasarela/config";
import { RETRY_FOR_MS } from "./domain/reintentos.js";

export const webhooksConfigSchema = z.object({
  ...natsConfig,
  ...databaseConfig,
  ...telemetryConfig,
  ...keyEncryptionConfig,
  /**
   * accept endpoint addresses on loopback, private, link-local and other internal networks
   * (`true` only where the receivers are local, as under `npm start`): otherwise the gateway
   * could be made to call its own network
   */
  WEBHOOKS_ALLOW_PRIVATE: z
    .preprocess(
      (value) => (value === "" ? undefined : value),
      z.enum(["true", "false"]).default("false"),
    )
    .transform((value) => value === "true"),
  /**
   * shrinks the whole retry schedule of deliveries (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then
   * every 12 h for 3 days) by this factor: 1 in production, 0.001 in tests
   */
  WEBHOOKS_RETRY_SCALE: z
    .preprocess((value) => (value === "" ? undefined : value), z.coerce.number().gt(0).max(1))
    .default(1),
  /**
   * how long an endpoint's deliveries must have failed without one delivered before the
   * endpoint is disabled and its account's owner told by e-mail; unset, the retry schedule's
   * 3 days (times WEBHOOKS_RETRY_SCALE): a delivery gives up when its endpoint is disabled
   */
  WEBHOOKS_FAILURE_WINDOW_MS: envInt().pipe(z.number().min(1_000)).optional(),
  /**
   * how long an attempt holds its delivery: the attempts of an instance that died are made
   * again once it ends, so it must outlast any attempt (a 10 s answer, plus resolving)
   */
  WEBHOOKS_LEASE_MS: envInt().pipe(z.number().min(15_000)).default(60_000),
  /** deliveries one instance makes at once, each to a different endpoint */
  WEBHOOKS_CONCURRENCY: envInt().pipe(z.number().min(1).max(256)).default(16),
});

export type WebhooksConfig = z.output<typeof webhooksConfigSchema>;

/** The failure window in effect: WEBHOOKS_FAILURE_WINDOW_MS, or the scaled retry schedule. */
export const failureWindowMs = (config: WebhooksConfig): number =>
  config.WEBHOOKS_FAILURE_WINDOW_MS ?? RETRY_FOR_MS * config.WEBHOOKS_RETRY_SCALE;

export const loadConfig = (env: Record<string, string | undefined> = process.env): WebhooksConfig =>
  parseConfig(webhooksConfigSchema, env);
