import {
  databaseConfig,
  envString,
  envUrl,
  keyEncryptionConfig,
  natsConfig,
  parseConfig,
  telemetryConfig,
  z,
} from "@pasarela/config";

export const cobrosConfigSchema = z.object({
  ...natsConfig,
  ...databaseConfig,
  ...telemetryConfig,
  ...keyEncryptionConfig,
  /** Mercado Pago's API (a local stand-in under `npm start` and in tests) */
  MERCADOPAGO_API_URL: envUrl().default("https://api.mercadopago.com"),
  /** the gateway's public address: Mercado Pago notifies `<it>/webhooks/mercadopago/<account>` */
  COBROS_PUBLIC_URL: envString().pipe(z.url()).default("http://127.0.0.1:3000"),
});

export type CobrosConfig = z.output<typeof cobrosConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): CobrosConfig =>
  parseConfig(cobrosConfigSchema, env);
