import { billing } from "@pasarela/contracts";
import { z } from "zod";
import { defineCommand } from "../command.js";

export const accountCommands = [
  defineCommand({
    resource: "account",
    verb: "create",
    usage: "account create --name <name>",
    flags: z.object({ name: z.string().min(1) }).strict(),
    run: (bus, flags) => bus.request(billing.accountCreate, { name: flags.name }),
  }),
];
