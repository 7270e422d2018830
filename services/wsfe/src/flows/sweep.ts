import { ok } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import { startPeriodic, type PeriodicPass } from "./periodic.js";
import type { VoucherAuthority } from "../adapters/voucher-authority.js";
import type { ComprobantesRepository } from "../db/repositories/comprobantes.js";
import type { VoucherEvents } from "./events.js";
import type { Reconciler } from "./reconcile.js";
import type { SeriesWriter } from "./series-writer.js";

/** An event is republished only once its voucher has been settled this long. */
const UNPUBLISHED_AFTER_MS = 10_000;
const UNPUBLISHED_BATCH = 200;

export interface ReconciliationSweep {
  /** one pass over every unsettled series and unpublished event; never throws */
  run(): Promise<void>;
  /** no further pass starts; resolves once the pass under way (if any) has ended */
  stop(): Promise<void>;
}

/**
 * Reconciliation without waiting for the next issuance on a series: at
 * start-up and every `intervalMs`, each series with a voucher left `pending` or `unknown` is
 * reconciled as its writer, so a voucher authorized just before a crash is adopted and its
 * event published even if nobody issues on that series again. Holding the series' lease means
 * no live instance is waiting on those vouchers: one that is waits for the lease to run out
 * (a dead holder's), which `waitMs` must outlast. Events left unpublished are sent again.
 */
export function startReconciliationSweep(deps: {
  authority: Pick<VoucherAuthority, "ultimoAutorizado">;
  comprobantes: Pick<ComprobantesRepository, "unresolvedSeries" | "unresolved" | "unpublished">;
  writer: SeriesWriter;
  reconcile: Reconciler;
  events: Pick<VoucherEvents, "publishOutcome" | "publishOutcomes">;
  logger: Logger;
  intervalMs: number;
  /** how long one series may wait for its lease and its authority calls */
  waitMs: number;
  now?: () => number;
}): ReconciliationSweep {
  const now = deps.now ?? Date.now;
  // a pass checks it between steps (passes run only once `periodic` below exists)
  const stopping = () => periodic.stopped;

  async function pass(): Promise<void> {
    for (const { series, accountId } of await deps.comprobantes.unresolvedSeries()) {
      if (stopping()) return;
      const deadline = now() + deps.waitMs;
      const settled = await deps.writer.run(series, deadline, async (held) => {
        const caller = { accountId, cuit: series.cuit, environment: series.environment, deadline };
        const open = await deps.comprobantes.unresolved(series);
        if (open.length === 0) return ok(undefined);
        const last = await deps.authority.ultimoAutorizado(caller, series);
        if (!last.ok) return last;
        return deps.reconcile(caller, series, last.value, open, held);
      });
      if (!settled.ok) {
        deps.logger.warn({ series, error: settled.error.message }, "series not reconciled yet");
      }
    }
    for (const v of await deps.comprobantes.unpublished(UNPUBLISHED_AFTER_MS, UNPUBLISHED_BATCH)) {
      if (stopping()) return;
      await deps.events.publishOutcome(v);
    }
  }

  const periodic: PeriodicPass = startPeriodic({
    pass,
    intervalMs: deps.intervalMs,
    logger: deps.logger,
    what: "reconciliation sweep",
  });
  return periodic;
}
