import { connectBus } from "@pasarela/bus";
import { natsConfig, natsCredentials, parseConfig, z } from "@pasarela/config";
import { createLogger, startTracing } from "@pasarela/telemetry";
import type { Command } from "./command.js";
import { commands } from "./commands/index.js";

export interface CliOutcome {
  exitCode: number;
  stdout?: string;
  stderr?: string;
}

const fail = (error: string): CliOutcome => ({
  exitCode: 1,
  stderr: `${JSON.stringify({ error })}\n`,
});

/** `--a 1 --b-c x` → { a: "1", "b-c": "x" }; a flag without a value is an error. */
export function parseFlags(args: readonly string[]): Record<string, string> | string {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i];
    const value = args[i + 1];
    if (!name?.startsWith("--") || name.length < 3) return `argumento inesperado: ${name ?? ""}`;
    if (value === undefined || value.startsWith("--")) return `falta el valor de ${name}`;
    flags[name.slice(2)] = value;
  }
  return flags;
}

function usage(): string {
  return `uso: npm run admin -- <comando>; comandos: ${commands.map((c) => c.usage).join(" | ")}`;
}

/**
 * Runs one command against the stack on NATS_URL (and NATS_PREFIX); prints one JSON object on
 * stdout, or `{"error": "..."}` on stderr with a non-zero exit code.
 */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
): Promise<CliOutcome> {
  const [resource, verb, ...rest] = argv;
  const command: Command | undefined = commands.find(
    (c) => c.resource === resource && c.verb === verb,
  );
  if (!command) return fail(usage());
  const raw = parseFlags(rest);
  if (typeof raw === "string") return fail(`${raw}; uso: ${command.usage}`);
  const flags = command.flags.safeParse(raw);
  if (!flags.success) {
    const issue = flags.error.issues[0];
    const flag = issue?.path.join(".") ?? "";
    return fail(`--${flag}: ${issue?.message ?? "inválido"}; uso: ${command.usage}`);
  }
  if (command.local) {
    const result = await command.run(flags.data);
    if (!result.ok) return fail(result.error.message);
    return { exitCode: 0, stdout: `${JSON.stringify(result.value)}\n` };
  }
  const config = parseConfig(z.object({ ...natsConfig }), env);
  const logger = createLogger({ service: "admin", level: "silent" });
  let bus;
  try {
    bus = await connectBus({
      url: config.NATS_URL,
      prefix: config.NATS_PREFIX,
      name: "admin-cli",
      // the operator identity (user `admin` in deploy/nats) when the server asks for one
      credentials: natsCredentials(config),
      logger,
      tracer: startTracing({ service: "admin" }).tracer,
      defaultTimeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    });
  } catch (error) {
    return fail(
      `no se pudo conectar a NATS en ${config.NATS_URL}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    const result = await command.run(bus, flags.data);
    if (!result.ok) return fail(result.error.message);
    return { exitCode: 0, stdout: `${JSON.stringify(result.value)}\n` };
  } finally {
    await bus.close();
  }
}
