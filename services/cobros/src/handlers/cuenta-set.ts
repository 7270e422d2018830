import type { Handler } from "@pasarela/bus";
import type { cobros } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { CuentasRepository } from "../db/repositories/cuentas.js";

/** `cobros.cuenta.set` (operator CLI): the account's Mercado Pago token and webhook secret. */
export function makeCuentaSet(deps: {
  cuentas: Pick<CuentasRepository, "set">;
  webhookUrl: (accountId: string) => string;
}): Handler<typeof cobros.cuentaSet> {
  return async (request) => {
    await deps.cuentas.set(request.accountId, {
      accessToken: request.accessToken,
      webhookSecret: request.webhookSecret,
    });
    return ok({
      accountId: request.accountId,
      provider: "mercadopago" as const,
      webhookUrl: deps.webhookUrl(request.accountId),
    });
  };
}
