import type { Bus } from "@pasarela/bus";
import type { Result } from "@pasarela/errors";
import type { z } from "zod";

/**
 * One flag as typed (`--pto-vta` is `"pto-vta"`): the schema that parses its value, how the
 * usage writes that value and what it means. The parser and the help both read this, so the
 * help cannot drift from what is accepted: a schema that takes `undefined` makes the flag
 * optional, and its default is shown.
 */
export interface Flag<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  /** what the flag means, completing "--flag: …" */
  readonly help: string;
  /** the value as the usage writes it; an enum's choices, or `<flag>`, when not given */
  readonly value?: string;
}

export type Flags = Record<string, Flag>;

/** The parsed flags a command runs with. */
export type FlagValues<F extends Flags> = z.output<
  z.ZodObject<{ -readonly [K in keyof F]: F[K]["schema"] }>
>;

export const flag = <S extends z.ZodType>(schema: S, help: string, value?: string): Flag<S> => ({
  schema,
  help,
  ...(value === undefined ? {} : { value }),
});

interface Described<F extends Flags> {
  readonly resource: string;
  readonly verb: string;
  /** what the command does and answers, for its help */
  readonly summary: string;
  readonly flags: F;
}

/** One operator command, `<resource> <verb>`; `run` answers the JSON object printed on stdout. */
export interface BusCommand<F extends Flags = Flags> extends Described<F> {
  readonly local?: false;
  run(bus: Bus, flags: FlagValues<F>): Promise<Result<unknown>>;
}

/** A command that reads this machine only (the local SMTP sink): it needs no running stack. */
export interface LocalCommand<F extends Flags = Flags> extends Described<F> {
  readonly local: true;
  run(flags: FlagValues<F>): Promise<Result<unknown>>;
}

export type Command = BusCommand | LocalCommand;

export function defineCommand<F extends Flags>(command: BusCommand<F>): Command {
  return command;
}

export function defineLocalCommand<F extends Flags>(
  command: Omit<LocalCommand<F>, "local">,
): Command {
  return { ...command, local: true } as unknown as Command;
}
