import { z } from "zod";
import type { Command, Flag } from "./command.js";

/** How an operator types the CLI. */
export const PROGRAM = "npm run admin --";

/** `--help`, `-h` and `help` all ask for the usage. */
export const isHelp = (arg: string | undefined): boolean =>
  arg === "--help" || arg === "-h" || arg === "help";

/** The schema under `.optional()` and `.default()`, where an enum keeps its choices. */
function innermost(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) {
    return innermost(schema.unwrap() as z.ZodType);
  }
  return schema;
}

export const isRequired = (f: Flag): boolean => !f.schema.safeParse(undefined).success;

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

/** `key create --account <accountId> --scope read_only|read_write`, optional flags in brackets. */
export function synopsis(command: Command): string {
  const flags = Object.entries(command.flags).map(([name, f]) => {
    const written = `--${name} ${valueOf(name, f)}`;
    return isRequired(f) ? written : `[${written}]`;
  });
  return [command.resource, command.verb, ...flags].join(" ");
}

/** The full usage of one command: synopsis, what it does, and every flag. */
export function commandHelp(command: Command): string {
  const rows = Object.entries(command.flags).map(([name, f]) => {
    const fallback = defaultOf(f);
    const need = isRequired(f)
      ? "obligatoria"
      : fallback === undefined
        ? "opcional"
        : `opcional, por omisión ${shown(fallback)}`;
    return `  --${name} ${valueOf(name, f)}\n      ${need}: ${f.help}`;
  });
  return [
    `uso: ${PROGRAM} ${synopsis(command)}`,
    "",
    command.summary,
    "",
    ...(rows.length === 0 ? ["sin opciones"] : ["opciones:", ...rows]),
    ...(command.local ? ["", "lee esta máquina: no necesita el stack en marcha"] : []),
    "",
  ].join("\n");
}

/** The commands of `resource`, or of every resource, one line each. */
export function overview(commands: readonly Command[], resource?: string): string {
  const listed = commands.filter((c) => resource === undefined || c.resource === resource);
  const names = listed.map((c) => `${c.resource} ${c.verb}`);
  const width = Math.max(0, ...names.map((n) => n.length));
  return [
    `uso: ${PROGRAM} ${resource ?? "<recurso>"} <verbo> [--opción valor ...]`,
    `     ${PROGRAM} ${resource ?? "<recurso>"} <verbo> --help    (las opciones de un comando)`,
    "",
    'Imprime un objeto JSON en stdout (código 0), o {"error": "..."} en stderr (código 1).',
    "Habla con el stack en marcha por NATS (NATS_URL, NATS_PREFIX).",
    "",
    "comandos:",
    ...listed.map((c, i) => `  ${names[i]!.padEnd(width)}  ${firstSentence(c.summary)}`),
    "",
  ].join("\n");
}

/** Up to the first full stop followed by a space or the end (".eml" is no full stop). */
const firstSentence = (text: string): string => /^.*?(?:\.(?=\s|$)|$)/.exec(text)?.[0] ?? text;
