import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * Configuration is read once per process from the environment and validated with zod. A bad
 * or missing value stops the process with a message naming the variable.
 */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export function parseConfig<S extends z.ZodObject>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const variable = issue.path.join(".") || "(environment)";
    const value = env[variable];
    const shown = value === undefined ? "not set" : "invalid";
    return `${variable} (${shown}): ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
}

/** Empty strings count as unset, so `FOO=` in a .env file falls back to the default. */
const unsetIfEmpty = (value: unknown) => (value === "" ? undefined : value);

export const envString = () => z.preprocess(unsetIfEmpty, z.string());
export const envUrl = () => z.preprocess(unsetIfEmpty, z.url());
export const envInt = () => z.preprocess(unsetIfEmpty, z.coerce.number().int());
export const envPort = () => z.preprocess(unsetIfEmpty, z.coerce.number().int().min(0).max(65535));

const DURATION_UNITS_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * A length of time as people write it (`72h`, `30m`, `45s`, `500ms`, `3d`) or a whole number of
 * milliseconds; the value is in milliseconds.
 */
export const envDuration = () =>
  z.preprocess(
    unsetIfEmpty,
    z.union([z.number(), z.string()]).transform((value, ctx) => {
      const match = /^\s*(\d+)\s*(ms|s|m|h|d)?\s*$/.exec(String(value));
      if (!match) {
        ctx.addIssue({
          code: "custom",
          message: "must be a duration such as 72h, 30m, 45s, 500ms or 3d (or milliseconds)",
        });
        return z.NEVER;
      }
      const unit = (match[2] ?? "ms") as keyof typeof DURATION_UNITS_MS;
      return Number(match[1]) * DURATION_UNITS_MS[unit];
    }),
  );

/**
 * A file of PEM certificates, read once while the configuration is parsed: a missing file or
 * one without a readable certificate stops the process naming the variable. The value is the
 * path (for logs) and the PEM text.
 */
export const envPemFile = () =>
  z.preprocess(unsetIfEmpty, z.string().optional()).transform((path, ctx) => {
    if (path === undefined) return undefined;
    let pem: string;
    try {
      pem = readFileSync(path, "utf8");
      new X509Certificate(pem);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      ctx.addIssue({
        code: "custom",
        message: `no PEM certificate readable at ${path} (${reason})`,
      });
      return z.NEVER;
    }
    return { path, pem };
  });

/** Fragments shared by every service; each service composes the ones it needs. */
export const natsConfig = {
  /**
   * the NATS server (with JetStream) every process connects to; the servers of a cluster
   * separated by commas (`nats://a:4222,nats://b:4222,nats://c:4222`): the process connects to
   * any one and moves to another when it goes away
   */
  NATS_URL: envString().default("nats://127.0.0.1:4222"),
  /** Subject prefix isolating one deployment (or one test file) on a shared NATS server. */
  NATS_PREFIX: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and - only")
      .optional(),
  ),
  /** how long a NATS request waits for its answer; subjects that call the authority wait longer */
  NATS_REQUEST_TIMEOUT_MS: envInt().pipe(z.number().min(100)).default(10_000),
  /**
   * While a handler runs, its process tells the requester it is still working this often; a
   * requester that hears nothing for NATS_SILENCE_TIMEOUT_MS (at least twice the interval)
   * takes the responder for dead instead of waiting out the deadline. Every process of a
   * deployment must share both values.
   */
  NATS_PROGRESS_INTERVAL_MS: envInt().pipe(z.number().min(50)).default(750),
  /** silence after which a query's or an issuance's instance is taken for dead (see above) */
  NATS_SILENCE_TIMEOUT_MS: envInt().pipe(z.number().min(100)).default(2_000),
  /** replicas of the JetStream streams a service creates: 1 on one server, 3 on a cluster */
  NATS_STREAM_REPLICAS: envInt().pipe(z.number().int().min(1).max(5)).default(1),
  /**
   * On SIGTERM a process takes no new work (its NATS subscriptions are drained, so the other
   * instances get the new requests; the edge stops accepting connections) and gives the work
   * already taken this long to finish before it closes its connections and exits. Keep it
   * below the orchestrator's grace period (Kubernetes terminationGracePeriodSeconds, 30 s).
   * Written as a duration (`20s`, `1m`) or milliseconds, up to 10 minutes.
   */
  SHUTDOWN_DRAIN_MS: envDuration().pipe(z.number().int().min(0).max(600_000)).default(20_000),
  /**
   * This process's own NATS identity (deploy/nats grants each only its subjects): a user and
   * password, or a credentials file (nkey/JWT). Unset: an anonymous connection, as a plain
   * local server accepts. The operator CLI reads the same three.
   */
  NATS_USER: z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and - only")
      .optional(),
  ),
  /** the password of NATS_USER */
  NATS_PASSWORD: z.preprocess(unsetIfEmpty, z.string().optional()),
  /** a NATS credentials file (nkey/JWT), instead of a user and password */
  NATS_CREDS: z.preprocess(unsetIfEmpty, z.string().optional()),
};

/** How a process authenticates to NATS, from the settings above. */
export type NatsCredentials =
  { readonly user: string; readonly password: string } | { readonly credsFile: string };

/**
 * The credentials the NATS_* settings name: a credentials file wins; a user needs its
 * password (and the other way round), and the error names the missing variable.
 */
export function natsCredentials(settings: {
  NATS_USER?: string | undefined;
  NATS_PASSWORD?: string | undefined;
  NATS_CREDS?: string | undefined;
}): NatsCredentials | undefined {
  if (settings.NATS_CREDS) return { credsFile: settings.NATS_CREDS };
  if (settings.NATS_USER === undefined && settings.NATS_PASSWORD === undefined) return undefined;
  if (settings.NATS_USER === undefined)
    throw new ConfigError("Invalid configuration: NATS_USER (not set): NATS_PASSWORD needs it");
  if (settings.NATS_PASSWORD === undefined)
    throw new ConfigError("Invalid configuration: NATS_PASSWORD (not set): NATS_USER needs it");
  return { user: settings.NATS_USER, password: settings.NATS_PASSWORD };
}

export const databaseConfig = {
  /** the PostgreSQL database; each service owns its own schema in it */
  DATABASE_URL: envString().default("postgres://postgres@127.0.0.1:5432/postgres"),
  /**
   * connections in the service's pool at most (each service of a process has its own; one
   * unused for 30 s is closed)
   */
  DATABASE_POOL_SIZE: envInt().pipe(z.number().min(1).max(100)).default(10),
};

export const telemetryConfig = {
  /** the lowest level logged (pino JSON lines) */
  LOG_LEVEL: z
    .preprocess(
      unsetIfEmpty,
      z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]),
    )
    .default("info"),
  /** where traces are exported over OTLP/HTTP; unset: none exported */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(unsetIfEmpty, z.url().optional()),
  /**
   * Prometheus metrics at http://METRICS_HOST:METRICS_PORT/metrics, one endpoint for the
   * process whatever services it runs; unset: not served
   */
  METRICS_PORT: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(0).max(65_535).optional()),
  /** the address the metrics endpoint listens on */
  METRICS_HOST: envString().default("127.0.0.1"),
};

/** Base URLs of the authority, one set per environment. */
export const authorityConfig = {
  /** WSAA (loginCms), homologación */
  WSAA_URL_HOMOLOGACION: envUrl().default("https://wsaahomo.afip.gov.ar/ws/services/LoginCms"),
  /** WSAA (loginCms), producción */
  WSAA_URL_PRODUCCION: envUrl().default("https://wsaa.afip.gov.ar/ws/services/LoginCms"),
  /** WSFEv1, homologación */
  WSFE_URL_HOMOLOGACION: envUrl().default("https://wswhomo.afip.gov.ar/wsfev1/service.asmx"),
  /** WSFEv1, producción */
  WSFE_URL_PRODUCCION: envUrl().default("https://servicios1.afip.gov.ar/wsfev1/service.asmx"),
  /** WSFEXv1, homologación */
  WSFEX_URL_HOMOLOGACION: envUrl().default("https://wswhomo.afip.gov.ar/wsfexv1/service.asmx"),
  /** WSFEXv1, producción */
  WSFEX_URL_PRODUCCION: envUrl().default("https://servicios1.afip.gov.ar/wsfexv1/service.asmx"),
  // the registry services (ws_sr_padron_a13, ws_sr_padron_a10, ws_sr_constancia_inscripcion);
  // A10's WSDL says http://, but the host serves it over https like the others
  /** the registry's A13 (ws_sr_padron_a13), homologación */
  PADRON_A13_URL_HOMOLOGACION: envUrl().default(
    "https://awshomo.afip.gov.ar/sr-padron/webservices/personaServiceA13",
  ),
  /** the registry's A13, producción */
  PADRON_A13_URL_PRODUCCION: envUrl().default(
    "https://aws.afip.gov.ar/sr-padron/webservices/personaServiceA13",
  ),
  /** the registry's A10 (ws_sr_padron_a10), homologación */
  PADRON_A10_URL_HOMOLOGACION: envUrl().default(
    "https://awshomo.afip.gov.ar/sr-padron/webservices/personaServiceA10",
  ),
  /** the registry's A10, producción */
  PADRON_A10_URL_PRODUCCION: envUrl().default(
    "https://aws.afip.gov.ar/sr-padron/webservices/personaServiceA10",
  ),
  /** the constancia de inscripción (ws_sr_constancia_inscripcion, personaServiceA5), homologación */
  PADRON_CONSTANCIA_URL_HOMOLOGACION: envUrl().default(
    "https://awshomo.afip.gov.ar/sr-padron/webservices/personaServiceA5",
  ),
  /** the constancia de inscripción, producción */
  PADRON_CONSTANCIA_URL_PRODUCCION: envUrl().default(
    "https://aws.afip.gov.ar/sr-padron/webservices/personaServiceA5",
  ),
  /** how long one call to the authority may take, and never past the API call's deadline */
  AUTHORITY_TIMEOUT_MS: envInt().pipe(z.number().min(100)).default(30_000),
  /**
   * CA certificates trusted for the authority's HTTPS besides the system roots, e.g. the
   * simulator's (`npm run sim -- tls-ca`, or `.data/authority-sim-ca.pem` under `npm start`);
   * never needed for the real hosts.
   */
  AUTHORITY_CA_FILE: envPemFile(),
};

export { z };

/**
 * The AES-256-GCM key sealing secrets at rest (private keys, tickets, provider tokens, webhook
 * signing secrets).
 */
export const keyEncryptionConfig = {
  /**
   * AES-256-GCM key, base64 of 32 bytes, sealing secrets at rest: private keys and tickets
   * (ticket), the payment providers' credentials (cobros), webhook signing secrets (webhooks),
   * the CAEAs obtained for contingency (wsfe)
   */
  KEY_ENCRYPTION_KEY: z
    .string({ error: "is required (32 random bytes, base64)" })
    .refine((value) => Buffer.from(value, "base64").length === 32, {
      message: "must be exactly 32 bytes encoded in base64 (openssl rand -base64 32)",
    }),
};

/**
 * The AES-256-GCM key sealing list cursors, shared by every instance of the services that
 * page lists (a cursor from one instance opens on another). Changing it only invalidates
 * cursors already handed out: clients start their list again.
 */
export const cursorKeyConfig = {
  /**
   * AES-256-GCM key, base64 of 32 bytes, sealing list cursors to their account, list and
   * filters; changing it only restarts paging
   */
  CURSOR_KEY: z
    .string({ error: "is required (32 random bytes, base64)" })
    .refine((value) => Buffer.from(value, "base64").length === 32, {
      message: "must be exactly 32 bytes encoded in base64 (openssl rand -base64 32)",
    }),
};
