import { ok, type Result } from "@pasarela/errors";
import type { VoucherAuthority } from "../adapters/voucher-authority.js";
import type { WsfeCaller } from "../adapters/wsfe.js";
import type { ComprobantesRepository, StoredComprobante } from "../db/repositories/comprobantes.js";
import type { Reconciler } from "./reconcile.js";
import type { SeriesWriter } from "./series-writer.js";

/** A voucher stored before sending, or sent without an answer: its fate is still open. */
export const isOpen = (v: Pick<StoredComprobante, "state">) =>
  v.state === "pending" || v.state === "unknown";

/**
 * Settles one open voucher with the authority, as its series' writer, with the same
 * reconciliation an issuance runs before it numbers (FECompUltimoAutorizado, then
 * FECompConsultar): its CAE is adopted when the authority holds it, it is declared never
 * issued when its number is free and no send of it can land any more, and its event is
 * published. Fails when the authority cannot tell yet.
 */
export type OpenSettler = (
  accountId: string,
  open: StoredComprobante,
  deadline: number,
) => Promise<Result<void>>;

export function makeOpenSettler(deps: {
  authority: Pick<VoucherAuthority, "ultimoAutorizado">;
  comprobantes: Pick<ComprobantesRepository, "unresolved">;
  writer: SeriesWriter;
  reconcile: Reconciler;
}): OpenSettler {
  return async (accountId, open, deadline) => {
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
    return settled.ok ? ok(undefined) : settled;
  };
}
