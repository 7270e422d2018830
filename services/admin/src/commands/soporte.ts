import { billing } from "@pasarela/contracts";
import { z } from "zod";
import { defineCommand } from "../command.js";

/** Support tickets: the operator's queue, answers (e-mailed to the author) and closing. */
export const soporteCommands = [
  defineCommand({
    resource: "soporte",
    verb: "list",
    usage: "soporte list [--all true] (sin --all, solo los abiertos y respondidos)",
    flags: z.object({ all: z.enum(["true", "false"]).default("false") }).strict(),
    run: (bus, flags) => bus.request(billing.soporteOperadorList, { todos: flags.all === "true" }),
  }),
  defineCommand({
    resource: "soporte",
    verb: "show",
    usage: "soporte show --id <ticketId>",
    flags: z.object({ id: z.string() }).strict(),
    run: (bus, flags) => bus.request(billing.soporteOperadorGet, { id: flags.id }),
  }),
  defineCommand({
    resource: "soporte",
    verb: "reply",
    usage: "soporte reply --id <ticketId> --mensaje <texto> (se envía por e-mail a quien lo abrió)",
    flags: z.object({ id: z.string(), mensaje: z.string() }).strict(),
    run: (bus, flags) =>
      bus.request(billing.soporteOperadorReply, { id: flags.id, mensaje: flags.mensaje }),
  }),
  defineCommand({
    resource: "soporte",
    verb: "close",
    usage: "soporte close --id <ticketId>",
    flags: z.object({ id: z.string() }).strict(),
    run: (bus, flags) => bus.request(billing.soporteClose, { id: flags.id }),
  }),
];
