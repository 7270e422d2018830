import { envInt, envString, natsConfig, parseConfig, telemetryConfig, z } from "@pasarela/config";

const smtpUrl = envString().pipe(
  z.string().regex(/^smtps?:\/\/\S+$/, "must be an smtp:// or smtps:// URL"),
);

export const mailConfigSchema = z.object({
  ...natsConfig,
  ...telemetryConfig,
  /** where e-mails are handed over: smtp(s)://user:pass@host:port; only its host is logged */
  SMTP_URL: smtpUrl.default("smtp://127.0.0.1:2525"),
  /** the sender address; the display name is the representada's */
  MAIL_FROM: envString().pipe(z.email()).default("comprobantes@pasarela.local"),
  /** how long a temporary SMTP failure is retried, counted from when the e-mail was queued; then it is `failed` */
  MAIL_RETRY_FOR_MS: envInt().pipe(z.number().min(0)).default(3_600_000),
  /** the first retry's wait; it doubles per attempt up to MAIL_RETRY_MAX_DELAY_MS */
  MAIL_RETRY_BASE_MS: envInt().pipe(z.number().min(10)).default(5_000),
  /** the longest wait between two retries */
  MAIL_RETRY_MAX_DELAY_MS: envInt().pipe(z.number().min(10)).default(300_000),
  /** e-mails handed to SMTP at once by one instance */
  MAIL_CONCURRENCY: envInt().pipe(z.number().min(1).max(64)).default(4),
});

export type MailConfig = z.output<typeof mailConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): MailConfig =>
  parseConfig(mailConfigSchema, env);
