import { z } from "zod";
import type { ControlClient } from "./control/client.js";

/** A mistake in the command line: exit code 2, the message names what is wrong. */
export class UsageError extends Error {}

/** How an operator types this CLI. */
export const PROGRAM = "npm run sim --";

/**
 * One flag: the schema that parses its value, what it means and how the usage writes its
 * value. The parser and the help both read this: a schema that takes `undefined` makes the
 * flag optional, and its default is shown.
 */
export interface Flag<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  readonly help: string;
  /** the value as the usage writes it; an enum's choices, or `<flag>`, when not given */
  readonly value?: string;
}

export type Flags = Record<string, Flag>;

export type FlagValues<F extends Flags> = z.output<
  z.ZodObject<{ -readonly [K in keyof F]: F[K]["schema"] }>
>;

export const flag = <S extends z.ZodType>(schema: S, help: string, value?: string): Flag<S> => ({
  schema,
  help,
  ...(value === undefined ? {} : { value }),
});

export interface SimCommand<F extends Flags = Flags> {
  readonly name: string;
  /** other names the command answers to */
  readonly aliases?: readonly string[];
  /** what the command does and prints, for its help */
  readonly summary: string;
  readonly flags: F;
  /** what goes to stdout: JSON text, or a PEM */
  run(client: ControlClient, flags: FlagValues<F>): Promise<string>;
}

export function defineCommand<F extends Flags>(command: SimCommand<F>): SimCommand {
  return command;
}

/** `--help`, `-h` and `help` all ask for the usage. */
export const isHelp = (arg: string | undefined): boolean =>
  arg === "--help" || arg === "-h" || arg === "help";

export const seeHelp = (command?: SimCommand) =>
  `see ${[PROGRAM, command?.name, "--help"].filter(Boolean).join(" ")}`;

/**
 * `--a 1 --b=x` → { a: "1", b: "x" }; undefined when `--help` or `-h` stands where a flag
 * goes (or as the value of one: no value starts with "--").
 */
function splitFlags(command: SimCommand, args: readonly string[]): Map<string, string> | undefined {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--help" || arg === "-h") return undefined;
    if (!arg.startsWith("--"))
      throw new UsageError(`unexpected argument ${arg}; ${seeHelp(command)}`);
    const eq = arg.indexOf("=");
    if (eq > 0) {
      flags.set(arg.slice(2, eq), arg.slice(eq + 1));
      continue;
    }
    const value = args[i + 1];
    if (value === "--help") return undefined;
    if (value === undefined || value.startsWith("--")) {
      throw new UsageError(`${arg} needs a value; ${seeHelp(command)}`);
    }
    flags.set(arg.slice(2), value);
    i++;
  }
  return flags;
}

/** The schema under `.optional()` and `.default()`, where an enum keeps its choices. */
function innermost(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) {
    return innermost(schema.unwrap() as z.ZodType);
  }
  return schema;
}

/** One message per kind of mistake, naming the flag. */
function problem(name: string, f: Flag, given: unknown, issue: z.core.$ZodIssue): string {
  if (given === undefined) return `missing --${name}`;
  const inner = innermost(f.schema);
  if (inner instanceof z.ZodEnum) return `--${name} must be one of ${inner.options.join(", ")}`;
  if (issue.code === "invalid_type" && issue.expected === "int") {
    return `--${name} must be an integer`;
  }
  if (inner instanceof z.ZodNumber) return `--${name} must be a number`;
  return issue.message;
}

/** The flags of `command` parsed by their schemas; undefined when the usage was asked for. */
export function parseFlags<F extends Flags>(
  command: SimCommand<F>,
  args: readonly string[],
): FlagValues<F> | undefined {
  const raw = splitFlags(command, args);
  if (raw === undefined) return undefined;
  const values: Record<string, unknown> = {};
  for (const [name, given] of raw) {
    if (!Object.hasOwn(command.flags, name)) {
      throw new UsageError(`unknown flag --${name} for ${command.name}; ${seeHelp(command)}`);
    }
    values[name] = given;
  }
  for (const [name, f] of Object.entries(command.flags)) {
    const parsed = f.schema.safeParse(values[name]);
    if (!parsed.success) {
      const wrong = problem(name, f, values[name], parsed.error.issues[0]!);
      throw new UsageError(`${wrong}; ${seeHelp(command)}`);
    }
    values[name] = parsed.data;
  }
  return values as FlagValues<F>;
}

const isRequired = (f: Flag): boolean => !f.schema.safeParse(undefined).success;

function defaultOf(f: Flag): unknown {
  const parsed = f.schema.safeParse(undefined);
  return parsed.success ? parsed.data : undefined;
}

const shown = (value: unknown): string =>
  typeof value === "string" ? value : JSON.stringify(value);

function valueOf(name: string, f: Flag): string {
  if (f.value !== undefined) return f.value;
  const inner = innermost(f.schema);
  return inner instanceof z.ZodEnum ? inner.options.join("|") : `<${name}>`;
}

export function synopsis(command: SimCommand): string {
  const flags = Object.entries(command.flags).map(([name, f]) => {
    const written = `--${name} ${valueOf(name, f)}`;
    return isRequired(f) ? written : `[${written}]`;
  });
  return [command.name, ...flags].join(" ");
}

/** The full usage of one command: synopsis, what it does, and every flag. */
export function commandHelp(command: SimCommand): string {
  const rows = Object.entries(command.flags).map(([name, f]) => {
    const fallback = defaultOf(f);
    const need = isRequired(f)
      ? "required"
      : fallback === undefined
        ? "optional"
        : `optional, default ${shown(fallback)}`;
    return `  --${name} ${valueOf(name, f)}\n      ${need}: ${f.help}`;
  });
  return [
    `usage: ${PROGRAM} ${synopsis(command)}`,
    ...(command.aliases?.length ? [`(also: ${command.aliases.join(", ")})`] : []),
    "",
    command.summary,
    "",
    ...(rows.length === 0 ? ["no flags"] : ["flags:", ...rows]),
    "",
  ].join("\n");
}

/** Every command, one line each. */
export function overview(commands: readonly SimCommand[]): string {
  const width = Math.max(0, ...commands.map((c) => c.name.length));
  return [
    `usage: ${PROGRAM} <command> [--flag value ...]`,
    `       ${PROGRAM} <command> --help    (that command's flags)`,
    "",
    "Drives the authority simulator through its control API at SIM_URL (default",
    "http://127.0.0.1:4400). Prints one JSON object (a PEM for cert, ca and tls-ca) on stdout,",
    'or {"error": "..."} on stderr (exit code 2 for a wrong command line, 1 otherwise).',
    "",
    "commands:",
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${firstSentence(c.summary)}`),
    "",
  ].join("\n");
}

/** Up to the first full stop followed by a space or the end. */
const firstSentence = (text: string): string => /^.*?(?:\.(?=\s|$)|$)/.exec(text)?.[0] ?? text;

/** The command a name or alias stands for; the error names an unknown one. */
export function commandNamed(commands: readonly SimCommand[], name: string): SimCommand {
  const command = commands.find((c) => c.name === name || c.aliases?.includes(name));
  if (!command) throw new UsageError(`unknown command ${name}; ${seeHelp()}`);
  return command;
}
