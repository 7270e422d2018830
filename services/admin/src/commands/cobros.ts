import { cobros } from "@pasarela/contracts";
import { z } from "zod";
import { defineCommand } from "../command.js";

/** The account's Mercado Pago credentials; sealed by the cobros service, never printed back. */
export const cobrosCommands = [
  defineCommand({
    resource: "mercadopago",
    verb: "set",
    usage: "mercadopago set --account <accountId> --access-token <token> --webhook-secret <secret>",
    flags: z
      .object({
        account: z.string().min(1),
        "access-token": z.string().min(1),
        "webhook-secret": z.string().min(1),
      })
      .strict(),
    run: (bus, flags) =>
      bus.request(cobros.cuentaSet, {
        accountId: flags.account,
        accessToken: flags["access-token"],
        webhookSecret: flags["webhook-secret"],
      }),
  }),
];
