import { billing } from "@pasarela/contracts";
import { z } from "zod";
import { defineCommand, flag } from "../command.js";

const id = flag(z.string(), "el id del ticket (soporte list)", "<ticketId>");

/** Support tickets: the operator's queue, answers (e-mailed to the author) and closing. */
export const soporteCommands = [
  defineCommand({
    resource: "soporte",
    verb: "list",
    summary:
      'Los tickets de soporte abiertos y respondidos de todas las cuentas, el que más espera primero. Responde {"tickets":[...]}.',
    flags: {
      all: flag(z.enum(["true", "false"]).default("false"), "true agrega los cerrados"),
    },
    run: (bus, flags) => bus.request(billing.soporteOperadorList, { todos: flags.all === "true" }),
  }),
  defineCommand({
    resource: "soporte",
    verb: "show",
    summary: "Un ticket de soporte con sus mensajes.",
    flags: { id },
    run: (bus, flags) => bus.request(billing.soporteOperadorGet, { id: flags.id }),
  }),
  defineCommand({
    resource: "soporte",
    verb: "reply",
    summary:
      "Responde un ticket: queda respondido y la respuesta se envía por e-mail a quien lo abrió.",
    flags: { id, mensaje: flag(z.string(), "el texto de la respuesta", "<texto>") },
    run: (bus, flags) =>
      bus.request(billing.soporteOperadorReply, { id: flags.id, mensaje: flags.mensaje }),
  }),
  defineCommand({
    resource: "soporte",
    verb: "close",
    summary: "Cierra un ticket de soporte.",
    flags: { id },
    run: (bus, flags) => bus.request(billing.soporteClose, { id: flags.id }),
  }),
];
