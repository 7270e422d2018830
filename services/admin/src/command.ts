import type { Bus } from "@pasarela/bus";
import type { Result } from "@pasarela/errors";
import type { z } from "zod";

/**
 * One operator command, `<resource> <verb>`, with its flags as a zod schema keyed by the flag
 * names as typed (`--pto-vta` is `"pto-vta"`). `run` answers the JSON object printed on stdout.
 */
export interface Command<F extends z.ZodType = z.ZodType> {
  readonly resource: string;
  readonly verb: string;
  readonly usage: string;
  readonly flags: F;
  run(bus: Bus, flags: z.output<F>): Promise<Result<unknown>>;
}

export function defineCommand<F extends z.ZodType>(command: Command<F>): Command {
  return command;
}
