import { randomBytes } from "node:crypto";
import { billing } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import { z } from "zod";
import { defineCommand, flag } from "../command.js";

/** Dashboard users: the operator adds one to an existing account. */
export const userCommands = [
  defineCommand({
    resource: "user",
    verb: "add",
    summary:
      'Agrega un usuario del panel a una cuenta existente. Responde {"userId","accountId","email"}, y "password" cuando no se dio una: generada, se muestra esta única vez.',
    flags: {
      account: flag(z.string(), "la cuenta", "<accountId>"),
      email: flag(z.string(), "el e-mail con que entra al panel", "<email>"),
      name: flag(z.string(), "su nombre"),
      password: flag(
        z.string().optional(),
        "su contraseña, de 10 a 200 caracteres; sin ella se genera una",
        "<password>",
      ),
    },
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
