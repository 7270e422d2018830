import { z } from "zod";

const port = z.coerce.number().int().min(0).max(65535);

const schema = z.object({
  SIM_PORT: port.default(4400),
  SIM_HOST: z.string().min(1).default("127.0.0.1"),
  /** `off` serves plain HTTP only. */
  SIM_HTTPS_PORT: z
    .union([z.literal("off"), port])
    .default(4401)
    .transform((v) => (v === "off" ? undefined : v)),
  /** Extra names (hosts or IPs, comma-separated) the HTTPS certificate covers. */
  SIM_TLS_NAMES: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((n) => n.trim())
        .filter((n) => n !== ""),
    )
    .pipe(z.array(z.string().regex(/^[A-Za-z0-9.:-]+$/, "host names or IP addresses"))),
  /** Where the HTTPS port's CA certificate is written at start. */
  SIM_TLS_CA_FILE: z.string().min(1).optional(),
  SIM_STATE_FILE: z.string().min(1).optional(),
  SIM_LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info"),
});

export type SimConfig = z.infer<typeof schema>;

const VARIABLES = [
  "SIM_PORT",
  "SIM_HOST",
  "SIM_HTTPS_PORT",
  "SIM_TLS_NAMES",
  "SIM_TLS_CA_FILE",
  "SIM_STATE_FILE",
  "SIM_LOG_LEVEL",
] as const;

/** Reads the process environment; throws naming the offending variable. */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): SimConfig {
  const picked = Object.fromEntries(
    VARIABLES.map((name) => [name, env[name] === "" ? undefined : env[name]]),
  );
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `invalid environment variable ${String(issue?.path[0] ?? "?")}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}
