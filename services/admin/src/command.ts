import type { Bus } from "@pasarela/bus";
import type { Result } from "@pasarela/errors";
import type { z } from "zod";

/**
 * One operator command, `<resource> <verb>`, with its flags as a zod schema keyed by the flag
 * names as typed (`--pto-vta` is `"pto-vta"`). `run` answers the JSON object printed on stdout.
 */
export interface BusCommand<F extends z.ZodType = z.ZodType> {
  readonly resource: string;
  readonly verb: string;
  readonly usage: string;
  readonly flags: F;
  readonly local?: false;
  run(bus: Bus, flags: z.output<F>): Promise<Result<unknown>>;
}

/** A command that reads this machine only (the local SMTP sink): it needs no running stack. */
export interface LocalCommand<F extends z.ZodType = z.ZodType> {
  readonly resource: string;
  readonly verb: string;
  readonly usage: string;
  readonly flags: F;
  readonly local: true;
  run(flags: z.output<F>): Promise<Result<unknown>>;
}

export type Command = BusCommand | LocalCommand;

export function defineCommand<F extends z.ZodType>(command: BusCommand<F>): Command {
  return command;
}

export function defineLocalCommand<F extends z.ZodType>(
  command: Omit<LocalCommand<F>, "local">,
): Command {
  return { ...command, local: true };
}
