import { z } from "zod";

const schema = z.object({
  SIM_PORT: z.coerce.number().int().min(0).max(65535).default(4400),
  SIM_HOST: z.string().min(1).default("127.0.0.1"),
  SIM_STATE_FILE: z.string().min(1).optional(),
  SIM_LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info"),
});

export type SimConfig = z.infer<typeof schema>;

/** Reads the process environment; throws naming the offending variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): SimConfig {
  const picked = {
    SIM_PORT: env["SIM_PORT"] === "" ? undefined : env["SIM_PORT"],
    SIM_HOST: env["SIM_HOST"] === "" ? undefined : env["SIM_HOST"],
    SIM_STATE_FILE: env["SIM_STATE_FILE"] === "" ? undefined : env["SIM_STATE_FILE"],
    SIM_LOG_LEVEL: env["SIM_LOG_LEVEL"] === "" ? undefined : env["SIM_LOG_LEVEL"],
  };
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `invalid environment variable ${String(issue?.path[0] ?? "?")}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}
