import type { Bus } from "@pasarela/bus";
import { billing, type EventOf } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { Kysely } from "kysely";
import type { BillingDatabase } from "../db/database.js";
import {
  makeCuotaAlertasRepository,
  type CuotaAlertaRow,
} from "../db/repositories/cuota-alertas.js";

/** At most this many crossings announced per round. */
const BATCH = 100;

/** The event of a recorded crossing: its id is the row's, so announcing twice is harmless. */
export const cuotaAlertaEvent = (row: CuotaAlertaRow): EventOf<typeof billing.cuotaAlerta> => ({
  id: row.id,
  version: 1,
  accountId: row.account_id,
  resource: row.resource,
  period: {
    start: new Date(row.period_start).toISOString(),
    end: new Date(row.period_end).toISOString(),
  },
  used: row.used,
  limit: row.quota,
  umbral: row.umbral,
  occurredAt: new Date(row.created_at).toISOString(),
});

export interface CuotaAlertas {
  /**
   * Announces the crossings not yet announced. Never throws: what does not get out stays
   * recorded for the next round (after the next reservation, or the sweeper's).
   */
  flush(): Promise<void>;
}

/**
 * Announces recorded quota crossings (`evt.billing.cuota.alerta`) after the reservation that
 * crossed them committed. One round at a time per process; instances that overlap publish the
 * same ids, which the stream and the webhooks' deliveries de-duplicate.
 */
export function makeCuotaAlertas(deps: {
  db: Kysely<BillingDatabase>;
  bus: Pick<Bus, "publish">;
  logger: Logger;
  now: () => Date;
}): CuotaAlertas {
  const alertas = makeCuotaAlertasRepository(deps.db);
  let running: Promise<void> | undefined;
  let again = false;
  const round = async () => {
    for (const row of await alertas.unpublished(BATCH)) {
      await deps.bus.publish(billing.cuotaAlerta, cuotaAlertaEvent(row), {
        accountId: row.account_id,
      });
      await alertas.markPublished(row.id, deps.now());
      deps.logger.info(
        { accountId: row.account_id, resource: row.resource, umbral: row.umbral },
        "quota alert announced",
      );
    }
  };
  const flush = (): Promise<void> => {
    if (running) {
      // a crossing recorded while a round runs is announced by the one after it
      again = true;
      return running;
    }
    running = round()
      .catch((error: unknown) => deps.logger.warn({ err: error }, "quota alerts not announced"))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void flush();
        }
      });
    return running;
  };
  return { flush };
}
