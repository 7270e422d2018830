import { databaseConfig, natsConfig, parseConfig, telemetryConfig, z } from "@pasarela/config";

export const billingConfigSchema = z.object({
  ...natsConfig,
  ...databaseConfig,
  ...telemetryConfig,
  /** key of the HMAC that API-key secrets are stored under; never stored with them */
  API_KEY_PEPPER: z
    .string({ error: "is required (32+ random bytes, base64)" })
    .min(32, "must be at least 32 characters (32+ random bytes, base64)"),
});

export type BillingConfig = z.output<typeof billingConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): BillingConfig =>
  parseConfig(billingConfigSchema, env);
