import { cobros } from "@pasarela/contracts";
import { z } from "zod";
import { defineCommand, flag } from "../command.js";

/** The account's Mercado Pago credentials; sealed by the cobros service, never printed back. */
export const cobrosCommands = [
  defineCommand({
    resource: "mercadopago",
    verb: "set",
    summary:
      'Guarda (sellados) las credenciales de Mercado Pago de una cuenta, para sus links de cobro. Responde {"accountId","provider","webhookUrl"}; nunca las vuelve a mostrar.',
    flags: {
      account: flag(z.string().min(1), "la cuenta", "<accountId>"),
      "access-token": flag(
        z.string().min(1),
        "el access token de la cuenta de Mercado Pago",
        "<token>",
      ),
      "webhook-secret": flag(
        z.string().min(1),
        "la clave secreta con que Mercado Pago firma sus notificaciones",
        "<secret>",
      ),
    },
    run: (bus, flags) =>
      bus.request(cobros.cuentaSet, {
        accountId: flags.account,
        accessToken: flags["access-token"],
        webhookSecret: flags["webhook-secret"],
      }),
  }),
];
