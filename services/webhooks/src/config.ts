import {
  databaseConfig,
  keyEncryptionConfig,
  natsConfig,
  parseConfig,
  telemetryConfig,
  z,
} from "@pasarela/config";

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
});

export type WebhooksConfig = z.output<typeof webhooksConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): WebhooksConfig =>
  parseConfig(webhooksConfigSchema, env);
