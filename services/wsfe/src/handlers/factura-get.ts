import type { Handler } from "@pasarela/bus";
import { AUTHORITY_QUERY_TIMEOUT_MS, DEADLINE_SLACK_MS, type wsfe } from "@pasarela/contracts";
import { appError, authorityUnavailable, fail, ok } from "@pasarela/errors";
import type { VoucherAuthority } from "../adapters/voucher-authority.js";
import type { ComprobantesRepository } from "../db/repositories/comprobantes.js";
import { storedReply } from "../flows/events.js";
import type { Reconciler } from "../flows/reconcile.js";
import type { SeriesWriter } from "../flows/series-writer.js";
import { isOpen, makeOpenSettler } from "../flows/settle-open.js";

/**
 * `wsfe.factura.get`: the issuance under an Idempotency-Key. An unsettled voucher is settled
 * first, as its series' writer, with the same reconciliation an issuance runs before it
 * numbers (FECompUltimoAutorizado, then FECompConsultar): its CAE is adopted when the
 * authority holds it, and its event published.
 */
export function makeFacturaGet(deps: {
  authority: Pick<VoucherAuthority, "ultimoAutorizado">;
  comprobantes: Pick<ComprobantesRepository, "byIdempotencyKey" | "unresolved">;
  writer: SeriesWriter;
  reconcile: Reconciler;
  now?: () => number;
}): Handler<typeof wsfe.facturaGet> {
  const now = deps.now ?? Date.now;
  const settleOpen = makeOpenSettler(deps);
  return async ({ idempotencyKey }, ctx) => {
    const accountId = ctx.accountId;
    const deadline = ctx.deadline ?? now() + AUTHORITY_QUERY_TIMEOUT_MS - DEADLINE_SLACK_MS;
    let vouchers = await deps.comprobantes.byIdempotencyKey(accountId, idempotencyKey);
    const open = vouchers.find(isOpen);
    if (open) {
      const settled = await settleOpen(accountId, open, deadline);
      if (!settled.ok) return settled;
      vouchers = await deps.comprobantes.byIdempotencyKey(accountId, idempotencyKey);
    }
    // a contingency voucher the authority refused at informing was handed out all the same:
    // its key answers it, and never issues another
    const authorized = vouchers.find(
      (v) => v.state === "authorized" || v.state === "caea_rechazado",
    );
    if (authorized) {
      const reply = storedReply(authorized);
      // an authorized row our own code cannot answer is a defect of ours, not the authority's
      if (!reply) return fail(appError("INTERNAL"));
      return ok({ state: "authorized" as const, reply });
    }
    const rejected = vouchers.find((v) => v.state === "rejected");
    if (rejected) {
      return ok({
        state: "rejected" as const,
        observaciones: rejected.observaciones.map(({ code, msg }) => ({ code, msg })),
        errores: rejected.errores.map(({ code, msg }) => ({ code, msg })),
        ptoVta: rejected.series.ptoVta,
        cbteTipo: rejected.series.cbteTipo,
        cbteNro: rejected.cbteNro,
      });
    }
    if (vouchers.some(isOpen)) {
      return fail(authorityUnavailable("la AFIP todavía no permitió verificar el comprobante"));
    }
    return ok({ state: "not_issued" as const });
  };
}
