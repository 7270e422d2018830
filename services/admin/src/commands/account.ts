import { billing } from "@pasarela/contracts";
import { z } from "zod";
import { defineCommand, flag } from "../command.js";

export const accountCommands = [
  defineCommand({
    resource: "account",
    verb: "create",
    summary: 'Crea una cuenta, con el plan inicial. Responde {"accountId"}.',
    flags: { name: flag(z.string().min(1), "el nombre de la cuenta (p. ej. la razón social)") },
    run: (bus, flags) => bus.request(billing.accountCreate, { name: flags.name }),
  }),
];
