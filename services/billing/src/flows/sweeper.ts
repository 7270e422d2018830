import type { Logger } from "@pasarela/telemetry";
import type { Kysely } from "kysely";
import type { BillingDatabase } from "../db/database.js";
import { makeIdempotencyRepository } from "../db/repositories/idempotency.js";
import { makeQuotaRepository } from "../db/repositories/quota.js";
import { makeRejectionsRepository } from "../db/repositories/rejections.js";
import type { AccountingSettings } from "./settings.js";

/**
 * The scheduled clean-up: reservations whose call never reported back, expired
 * Idempotency-Keys, rejections long out of the window, and `extra` jobs (usage retention).
 * A failed round is logged and tried again at the next tick.
 */
export function startSweeper(deps: {
  db: Kysely<BillingDatabase>;
  settings: AccountingSettings;
  intervalMs: number;
  logger: Logger;
  extra?: readonly ((now: Date) => Promise<unknown>)[];
}): { sweep: () => Promise<void>; stop: () => Promise<void> } {
  let running: Promise<void> | undefined;
  const sweep = async () => {
    const now = deps.settings.now();
    const [reservations, keys] = await Promise.all([
      makeQuotaRepository(deps.db).sweepExpired(now),
      makeIdempotencyRepository(deps.db).sweepExpired(now),
      makeRejectionsRepository(deps.db).sweep(now),
      // past the EVENTS stream's 7-day retention no event can be delivered again
      deps.db
        .deleteFrom("handled_events")
        .where("handled_at", "<", new Date(now.getTime() - 8 * 24 * 3_600_000))
        .execute(),
      ...(deps.extra ?? []).map((job) => job(now)),
    ]);
    if (reservations + keys > 0) deps.logger.info({ reservations, keys }, "expired holds swept");
  };
  const timer = setInterval(() => {
    running ??= sweep()
      .catch((error: unknown) => deps.logger.warn({ err: error }, "sweep failed"))
      .finally(() => (running = undefined));
  }, deps.intervalMs);
  timer.unref();
  return {
    sweep,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
