import {
  databaseConfig,
  envInt,
  envPort,
  envUrl,
  natsConfig,
  parseConfig,
  telemetryConfig,
  z,
} from "@pasarela/config";

export const edgeConfigSchema = z
  .object({
    ...natsConfig,
    ...databaseConfig,
    ...telemetryConfig,
    /** the port the API, the docs and the panel listen on */
    EDGE_PORT: envPort().default(3000),
    /** the address the edge listens on */
    EDGE_HOST: z.string().default("127.0.0.1"),
    /** largest JSON body accepted, in bytes */
    EDGE_BODY_LIMIT: envInt().pipe(z.number().min(1024)).default(1_048_576),
    /** upper bound on how long a verified key is trusted without asking billing again; revocations invalidate at once regardless */
    EDGE_KEY_CACHE_TTL_MS: envInt().pipe(z.number().min(0)).default(300_000),
    /** headers and body must arrive within this, or the request is answered 408 */
    EDGE_REQUEST_TIMEOUT_MS: envInt().pipe(z.number().min(100)).default(30_000),
    /**
     * a connection silent this long is closed; must outlast the slowest answer (greater than both
     * EDGE_REQUEST_TIMEOUT_MS and API_TIMEOUT_MS)
     */
    EDGE_CONNECTION_TIMEOUT_MS: envInt().pipe(z.number().min(1_000)).default(120_000),
    /**
     * the longest an API call waits for the service behind it (each subject may wait less);
     * every call's deadline is this, or the subject's own shorter wait, minus 3 s, and travels
     * with every request behind it; keep it under a proxy's idle timeout in front
     */
    API_TIMEOUT_MS: envInt().pipe(z.number().min(5_000)).default(65_000),
    /**
     * on SIGTERM, how long the edge keeps listening and serving with /readyz answering 503
     * before it stops accepting connections: long enough for the load balancer in front to
     * take it out (its readiness period), so that no connection is reset at the close
     */
    EDGE_STOP_DELAY_MS: envInt().pipe(z.number().min(0).max(60_000)).default(0),
    /** `off` stops publishing calls to the usage history (only to measure what it costs) */
    EDGE_USAGE_RECORDING: z.enum(["on", "off"]).default("on"),
    /**
     * the dashboard's session cookie carries Secure (browsers keep it on http://localhost and
     * http://127.0.0.1 too, so only a plain-http deployment elsewhere needs `false`)
     */
    DASHBOARD_COOKIE_SECURE: z
      .preprocess((value) => (value === "" ? undefined : value), z.enum(["true", "false"]))
      .default("true")
      .transform((value) => value === "true"),
    /** a dashboard session unused this long ends */
    DASHBOARD_SESSION_IDLE_MS: envInt().pipe(z.number().min(60_000)).default(1_800_000),
    /** a dashboard session ends this long after login, whatever its activity */
    DASHBOARD_SESSION_MAX_MS: envInt().pipe(z.number().min(60_000)).default(43_200_000),
    /** the dashboard's public origin for links sent by e-mail; the listening address if unset */
    DASHBOARD_PUBLIC_URL: envUrl().optional(),
  })
  // a silent socket is dropped without an answer: it must not beat the 408 of a stalled body
  .refine((config) => config.EDGE_CONNECTION_TIMEOUT_MS > config.EDGE_REQUEST_TIMEOUT_MS, {
    path: ["EDGE_CONNECTION_TIMEOUT_MS"],
    message: "must be greater than EDGE_REQUEST_TIMEOUT_MS",
  })
  // nor may it cut the slowest answer short: the client would get no answer at all
  .refine((config) => config.EDGE_CONNECTION_TIMEOUT_MS > config.API_TIMEOUT_MS, {
    path: ["EDGE_CONNECTION_TIMEOUT_MS"],
    message: "must be greater than API_TIMEOUT_MS",
  });

export type EdgeConfig = z.output<typeof edgeConfigSchema>;

export const loadConfig = (env: Record<string, string | undefined> = process.env): EdgeConfig =>
  parseConfig(edgeConfigSchema, env);
