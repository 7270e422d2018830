import { trace } from "@opentelemetry/api";
import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";

export type { Logger } from "pino";

/**
 * Paths pino blanks out wherever they appear, so a secret passed by mistake to a log call
 * never reaches the output: API keys, bearer headers, private keys, WSAA tokens and signs,
 * passwords, connection strings and payment-provider credentials.
 */
const redactedPaths = [
  "secret",
  "*.secret",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "*.headers.authorization",
  "privateKey",
  "*.privateKey",
  "keyPem",
  "*.keyPem",
  "token",
  "*.token",
  "sign",
  "*.sign",
  "password",
  "*.password",
  "databaseUrl",
  "*.databaseUrl",
  "accessToken",
  "*.accessToken",
  "webhookSecret",
  "*.webhookSecret",
  "xSignature",
  "*.xSignature",
];

export interface LoggerSettings {
  service: string;
  level?: string;
  /** where lines go; stdout by default (tests pass a capturing stream) */
  destination?: DestinationStream;
}

/** JSON logs with the active trace and span ids on every line. */
export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? "info",
    base: { service: settings.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: redactedPaths, censor: "[redactado]" },
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  };
  return settings.destination ? pino(options, settings.destination) : pino(options);
}
