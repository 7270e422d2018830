import type { Handler } from "@pasarela/bus";
import { AUTHORITY_QUERY_TIMEOUT_MS, DEADLINE_SLACK_MS, type wsfe } from "@pasarela/contracts";
import { appError, authorityUnavailable, fail, ok } from "@pasarela/errors";
import type { VoucherAuthority } from "../adapters/voucher-authority.js";
import type { WsfeCaller } from "../adapters/wsfe.js";
import type { ComprobantesRepository } from "../db/repositories/comprobantes.js";
import { storedReply } from "../flows/events.js";
import type { Reconciler } from "../flows/reconcile.js";
import type { SeriesWriter } from "../flows/series-writer.js";

const UNSETTLED = new Set(["pending", "unknown"]);

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
  return async ({ idempotencyKey }, ctx) => {
    const accountId = ctx.accountId;
    const deadline = ctx.deadline ?? now() + AUTHORITY_QUERY_TIMEOUT_MS - DEADLINE_SLACK_MS;
    let vouchers = await deps.comprobantes.byIdempotencyKey(accountId, idempotencyKey);
    const open = vouchers.find((v) => UNSETTLED.has(v.state));
    if (open) {
      const { series } = open;
      const caller: WsfeCaller = {
        accountId,
        cuit: series.cuit,
        environment: series.environment,
        deadline,
      };
      const settled = await deps.writer.run(series, deadline, async (held) => {
        // after a takeover, the retries of every call the dead writer had queue here: the
        // first one settles the whole series, the others find their voucher settled
        const unresolved = await deps.comprobantes.unresolved(series);
        if (!unresolved.some((v) => v.id === open.id)) return ok(undefined);
        const last = await deps.authority.ultimoAutorizado(caller, {
          ptoVta: series.ptoVta,
          cbteTipo: series.cbteTipo,
        });
        if (!last.ok) return last;
        return deps.reconcile(caller, series, last.value, unresolved, held);
      });
      if (!settled.ok) return settled;
      vouchers = await deps.comprobantes.byIdempotencyKey(accountId, idempotencyKey);
    }
    const authorized = vouchers.find((v) => v.state === "authorized");
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
    if (vouchers.some((v) => UNSETTLED.has(v.state))) {
      return fail(authorityUnavailable("la AFIP todavía no permitió verificar el comprobante"));
    }
    return ok({ state: "not_issued" as const });
  };
}
