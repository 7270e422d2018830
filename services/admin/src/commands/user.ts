import { randomBytes } from "node:crypto";
import { billing } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import { z } from "zod";
import { defineCommand } from "../command.js";

/** Dashboard users: the operator adds one to an existing account. */
export const userCommands = [
  defineCommand({
    resource: "user",
    verb: "add",
    usage:
      "user add --account <accountId> --email <email> --name <name> [--password <10 a 200 caracteres>] (sin --password se genera una y se muestra una sola vez)",
    flags: z
      .object({
        account: z.string(),
        email: z.string(),
        name: z.string(),
        password: z.string().optional(),
      })
      .strict(),
    run: async (bus, flags) => {
      // 16 random bytes: 22 characters, within the password rules
      const generated = flags.password === undefined ? randomBytes(16).toString("base64url") : null;
      const added = await bus.request(billing.userAdd, {
        accountId: flags.account,
        name: flags.name,
        email: flags.email,
        password: flags.password ?? generated!,
      });
      if (!added.ok) return added;
      return ok({
        userId: added.value.userId,
        accountId: flags.account,
        email: flags.email.trim().toLowerCase(),
        ...(generated === null ? {} : { password: generated }),
      });
    },
  }),
];
