import { connectBus } from "@pasarela/bus";
import { natsConfig, natsCredentials, parseConfig, z } from "@pasarela/config";
import { createLogger, startTracing } from "@pasarela/telemetry";
import type { Command } from "./command.js";
import { commands } from "./commands/index.js";
import { commandHelp, isHelp, overview, PROGRAM } from "./usage.js";

export interface CliOutcome {
  exitCode: number;
  stdout?: string;
  stderr?: string;
}

const fail = (error: string): CliOutcome => ({
  exitCode: 1,
  stderr: `${JSON.stringify({ error })}\n`,
});

const help = (text: string): CliOutcome => ({ exitCode: 0, stdout: text });

/** The hint every usage error ends with. */
const seeHelp = (...words: string[]) =>
  `usá ${[PROGRAM, ...words, "--help"].join(" ")} para ver ${words.length === 2 ? "sus opciones" : "los comandos"}`;

export type ParsedFlags =
  { readonly flags: Record<string, string> } | { readonly error: string } | { readonly help: true };

/**
 * `--a 1 --b-c x` → { a: "1", "b-c": "x" }; a flag without a value is an error. `--help` or
 * `-h` where a flag goes asks for the usage instead.
 */
export function parseFlags(args: readonly string[]): ParsedFlags {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i];
    if (name === "--help" || name === "-h") return { help: true };
    const value = args[i + 1];
    // a value never starts with "--", so `--flag --help` asks for the usage too
    if (value === "--help") return { help: true };
    if (!name?.startsWith("--") || name.length < 3) {
      return { error: `argumento inesperado: ${name ?? ""}` };
    }
    if (value === undefined || value.startsWith("--"))
      return { error: `falta el valor de ${name}` };
    flags[name.slice(2)] = value;
  }
  return { flags };
}

/** The command `argv` names, the usage it asks for, or the error naming what is wrong. */
function resolve(argv: readonly string[]): { command: Command; rest: string[] } | CliOutcome {
  const [resource, verb, ...rest] = argv;
  if (resource === undefined) return fail(`falta el comando; ${seeHelp()}`);
  if (isHelp(resource)) {
    // `help`, `help key`, `help key create`
    return argv.length === 1 ? help(overview(commands)) : resolveHelp(argv.slice(1));
  }
  if (!commands.some((c) => c.resource === resource)) {
    return fail(`comando desconocido: ${resource}; ${seeHelp()}`);
  }
  if (verb === undefined || isHelp(verb)) {
    return verb === undefined
      ? fail(`falta el verbo de ${resource}; ${seeHelp(resource)}`)
      : help(overview(commands, resource));
  }
  const command = commands.find((c) => c.resource === resource && c.verb === verb);
  if (!command) return fail(`comando desconocido: ${resource} ${verb}; ${seeHelp(resource)}`);
  return { command, rest };
}

function resolveHelp(words: readonly string[]): CliOutcome {
  const found = resolve([...words, "--help"]);
  if ("command" in found) return help(commandHelp(found.command));
  return found;
}

/**
 * Runs one command against the stack on NATS_URL (and NATS_PREFIX); prints one JSON object on
 * stdout, or `{"error": "..."}` on stderr with a non-zero exit code. `--help`, `-h` or `help`
 * print the usage on stdout instead, derived from the same flag definitions the parser reads.
 */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
): Promise<CliOutcome> {
  const found = resolve(argv);
  if (!("command" in found)) return found;
  const { command, rest } = found;
  const name = `${command.resource} ${command.verb}`;
  const parsed = parseFlags(rest);
  if ("help" in parsed) return help(commandHelp(command));
  if ("error" in parsed) return fail(`${parsed.error}; ${seeHelp(command.resource, command.verb)}`);
  const raw = parsed.flags;
  const unknown = Object.keys(raw).find((flag) => !Object.hasOwn(command.flags, flag));
  if (unknown !== undefined) {
    return fail(
      `opción desconocida para ${name}: --${unknown}; ${seeHelp(command.resource, command.verb)}`,
    );
  }
  const schema = z.object(
    Object.fromEntries(Object.entries(command.flags).map(([flag, f]) => [flag, f.schema])),
  );
  const flags = schema.safeParse(raw);
  if (!flags.success) {
    const issue = flags.error.issues[0];
    const flag = issue?.path.join(".") ?? "";
    return fail(
      `--${flag}: ${issue?.message ?? "inválido"}; ${seeHelp(command.resource, command.verb)}`,
    );
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
