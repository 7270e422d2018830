import { randomUUID } from "node:crypto";
import type { Bus, Handler } from "@pasarela/bus";
import { numeroComprobante, wsfe, type cobros } from "@pasarela/contracts";
import { appError, fail, invalidField, ok } from "@pasarela/errors";
import type { CuentasRepository } from "../db/repositories/cuentas.js";
import type { LinksRepository } from "../db/repositories/links.js";
import { montoDelLink, venceDelLink } from "../domain/monto.js";
import type { PaymentProvider } from "../domain/provider.js";

export interface LinkCreateDeps {
  bus: Pick<Bus, "request">;
  links: Pick<LinksRepository, "insert">;
  cuentas: Pick<CuentasRepository, "get">;
  provider: PaymentProvider;
  /** where the provider notifies payments of an account */
  webhookUrl: (accountId: string) => string;
  now?: () => Date;
}

/**
 * `cobros.link.create`: the voucher must be an authorized one the account issued through the
 * gateway; the preference is created at the provider first, and the link stored with it.
 */
export function makeLinkCreate(deps: LinkCreateDeps): Handler<typeof cobros.linkCreate> {
  return async (request, ctx) => {
    const accountId = ctx.accountId;
    const { environment, representada, ptoVta, cbteTipo, cbteNro } = request;
    const comprobante = { environment, representada, ptoVta, cbteTipo, cbteNro };
    const emitido = await deps.bus.request(wsfe.emitidoGet, comprobante, {
      accountId,
      requestId: ctx.requestId,
      deadline: ctx.deadline,
    });
    if (!emitido.ok) return emitido;
    // a voucher issued under a CAEA is the customer's from its issuance, informed or not
    const { state } = emitido.value;
    if (state !== "authorized" && state !== "caea_pendiente") {
      return fail(appError("COMPROBANTE_NO_AUTORIZADO"));
    }

    const monto = montoDelLink(emitido.value.totales, emitido.value.moneda, request.monto);
    if (!monto.ok) {
      return fail(
        invalidField("monto", `no puede superar el total del comprobante (${monto.total})`),
      );
    }
    const vence = venceDelLink(request.vencimiento, deps.now?.() ?? new Date());
    if (!vence) {
      return fail(invalidField("vencimiento", "debe ser una fecha válida, de hoy en adelante"));
    }
    const credentials = await deps.cuentas.get(accountId);
    if (!credentials) return fail(appError("PAYMENT_PROVIDER_NOT_CONFIGURED"));

    const id = randomUUID();
    const preference = await deps.provider.createPreference(credentials.accessToken, {
      reference: id,
      title: `Comprobante ${numeroComprobante(ptoVta, cbteNro)} (CUIT ${representada})`,
      monto: monto.monto,
      moneda: "ARS",
      expiresAt: vence,
      notificationUrl: deps.webhookUrl(accountId),
    });
    if (!preference.ok) {
      ctx.logger.warn({ reason: preference.reason }, "payment preference not created");
      return fail(appError("PAYMENT_PROVIDER_FAILED"));
    }
    const stored = await deps.links.insert({
      id,
      accountId,
      comprobante,
      monto: monto.monto,
      vence,
      preferenceId: preference.value.id,
      url: preference.value.url,
    });
    return ok(stored.view);
  };
}
