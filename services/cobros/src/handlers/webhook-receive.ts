import type { Bus, Handler } from "@pasarela/bus";
import { cobros } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { CuentasRepository, NotificacionesRepository } from "../db/repositories/cuentas.js";
import type { LinksRepository } from "../db/repositories/links.js";
import { sameMonto } from "../domain/monto.js";
import type { PaymentProvider } from "../domain/provider.js";
import { verifySignature } from "../domain/signature.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface WebhookDeps {
  bus: Pick<Bus, "publish">;
  cuentas: Pick<CuentasRepository, "get">;
  notificaciones: NotificacionesRepository;
  links: Pick<LinksRepository, "find" | "markPaid">;
  provider: PaymentProvider;
  now?: () => number;
}

/**
 * `cobros.webhook.receive`: nothing in a notification is trusted. Its signature is checked
 * under the account's secret first (forged: ignored and logged), a request id already handled
 * is a replay (ignored and logged), and the payment's state, amount and reference are read
 * from the provider with the account's token. Only an approved payment of the link's amount
 * makes it `pagado`, once, with `evt.cobros.link.pagado`.
 */
export function makeWebhookReceive(deps: WebhookDeps): Handler<typeof cobros.webhookReceive> {
  const now = deps.now ?? Date.now;
  return async (request, ctx) => {
    const ignore = (reason: string, extra: Record<string, unknown> = {}) => {
      ctx.logger.warn(
        {
          cuenta: request.cuenta,
          dataId: request.dataId,
          notificationRequestId: request.xRequestId,
          reason,
          ...extra,
        },
        "payment notification ignored",
      );
      return ok({ accepted: false });
    };
    if (!UUID.test(request.cuenta)) return ignore("unknown account");
    const credentials = await deps.cuentas.get(request.cuenta);
    if (!credentials) return ignore("account without provider credentials");
    const signature = verifySignature(request, credentials.webhookSecret, now());
    if (!signature.valid) return ignore(`forged: ${signature.reason}`);
    if (!request.xRequestId || !request.dataId) return ignore("no request id or data id");
    if (request.type !== undefined && request.type !== "payment") {
      return ignore(`not a payment notification (${request.type})`);
    }
    if (await deps.notificaciones.seen(request.xRequestId)) return ignore("replayed");

    const payment = await deps.provider.getPayment(credentials.accessToken, request.dataId);
    if (!payment.ok) {
      if (payment.notFound) return ignore(`payment not found at the provider: ${payment.reason}`);
      ctx.logger.warn({ reason: payment.reason }, "payment state not fetched");
      // the provider notifies again later: nothing is recorded yet
      return fail(appError("PAYMENT_PROVIDER_FAILED"));
    }
    // a second delivery racing this one records nothing and changes nothing
    if (!(await deps.notificaciones.record(request.xRequestId, request.cuenta, request.dataId))) {
      return ignore("replayed");
    }
    const p = payment.value;
    if (!p.approved) return ok({ accepted: true });
    const link = p.reference ? await deps.links.find(request.cuenta, p.reference) : undefined;
    if (!link) return ignore("payment of no link of this account", { paymentId: p.id });
    if (p.moneda !== link.view.moneda || !sameMonto(p.monto, link.view.monto)) {
      return ignore("payment amount differs from the link's", {
        paymentId: p.id,
        paid: `${p.monto} ${p.moneda}`,
        expected: `${link.view.monto} ${link.view.moneda}`,
      });
    }
    const approvedAt = p.approvedAt ? Date.parse(p.approvedAt) : Number.NaN;
    const at = new Date(Number.isNaN(approvedAt) ? now() : approvedAt);
    const paid = await deps.links.markPaid(request.cuenta, link.view.id, { id: p.id, at });
    if (paid) {
      const { comprobante } = paid.view;
      await deps.bus.publish(
        cobros.linkPagado,
        {
          id: `cobros.link.${paid.view.id}.pagado`,
          version: 1,
          linkId: paid.view.id,
          accountId: paid.accountId,
          ...comprobante,
          monto: paid.view.monto,
          moneda: paid.view.moneda,
          provider: "mercadopago",
          paymentId: p.id,
          pagadoAt: paid.view.pagadoAt ?? at.toISOString(),
          link: paid.view,
        },
        { accountId: paid.accountId, requestId: ctx.requestId },
      );
      ctx.logger.info({ linkId: paid.view.id, paymentId: p.id }, "payment link paid");
    }
    return ok({ accepted: true });
  };
}
