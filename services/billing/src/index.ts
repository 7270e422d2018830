import { ensureJobStream } from "@pasarela/bus";
import { mail } from "@pasarela/contracts";
import { makePageCursors } from "@pasarela/sealing";
import { serviceModule, startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import type { AccountingSettings } from "./flows/settings.js";
import { makeCuotaAlertas } from "./flows/cuota-alertas.js";
import { startSweeper } from "./flows/sweeper.js";
import { consumePaidLinks, consumeUsageEvents } from "./flows/usage-events.js";
import { consumeOutcomeEvents } from "./flows/outcome-events.js";
import { makeLoginAttemptsRepository } from "./db/repositories/login-attempts.js";
import { makePasswordResetsRepository } from "./db/repositories/password-resets.js";
import { makeUsageRepository } from "./db/repositories/usage.js";
import { makeSendMessage } from "./adapters/mail.js";
import { makeDummyHash } from "./domain/passwords.js";
import { loadConfig, type BillingConfig } from "./config.js";
import type { BillingDatabase } from "./db/database.js";
import { migrations, schema } from "./db/migrations/index.js";
import { billingBindings } from "./service.js";

export { loadConfig, billingConfigSchema as configSchema, type BillingConfig } from "./config.js";
export { migrations, schema } from "./db/migrations/index.js";

export interface BillingOptions {
  /** the clock of quota periods, the rejection window and key expiry (tests move it) */
  now?: () => Date;
}

export interface BillingDeps {
  /** runs one round of the scheduled clean-up now */
  sweep: () => Promise<void>;
}

/** Starts the billing service on the bus; used by its ServiceModule below and by tests in-process. */
export async function startBilling(
  config: BillingConfig,
  logger?: Logger,
  options: BillingOptions = {},
): Promise<RunningService<BillingDeps>> {
  return startService<BillingDatabase, BillingDeps>({
    name: "billing",
    settings: config,
    database: { schema, migrations },
    ...(logger ? { logger } : {}),
    start: async ({ bus, db, logger: log }) => {
      await bus.ensureEventStream();
      // password-reset links and support replies go out through the mail service
      await ensureJobStream(bus, mail.mensajeJob);
      const throttle = {
        maxPerEmail: config.LOGIN_MAX_FAILURES_PER_EMAIL,
        maxPerIp: config.LOGIN_MAX_FAILURES_PER_IP,
        windowMs: config.LOGIN_THROTTLE_WINDOW_MS,
      };
      const settings: AccountingSettings = {
        now: options.now ?? (() => new Date()),
        reservationTtlMs: config.QUOTA_RESERVATION_TTL_MS,
        issuanceLeaseMs: config.IDEMPOTENCY_LEASE_MS,
        idempotencyTtlMs: config.IDEMPOTENCY_TTL_MS,
      };
      const alertas = makeCuotaAlertas({ db: db!.db, bus, logger: log, now: settings.now });
      const sweeper = startSweeper({
        db: db!.db,
        settings,
        intervalMs: config.BILLING_SWEEP_INTERVAL_MS,
        logger: log,
        // retention of the usage history (13 months by default)
        extra: [
          (now) => {
            const before = new Date(now);
            before.setUTCMonth(before.getUTCMonth() - config.USAGE_RETENTION_MONTHS);
            return makeUsageRepository(db!.db).deleteBefore(before);
          },
          (now) => makeLoginAttemptsRepository(db!.db, throttle).sweep(now),
          (now) => makePasswordResetsRepository(db!.db).sweep(now),
          // quota alerts whose announcement did not get out after their reservation
          () => alertas.flush(),
        ],
      });
      const outcomes = await consumeOutcomeEvents({ bus, db: db!.db, logger: log });
      const usage = await consumeUsageEvents({ bus, db: db!.db, logger: log });
      const paidLinks = await consumePaidLinks({ bus, db: db!.db, logger: log });
      return {
        bindings: billingBindings({
          db: db!.db,
          bus,
          pepper: config.API_KEY_PEPPER,
          cursors: makePageCursors(config.CURSOR_KEY),
          settings,
          alertas,
          dashboard: {
            throttle,
            resetTtlMs: config.PASSWORD_RESET_TTL_MS,
            dummyHash: await makeDummyHash(),
            sendMessage: makeSendMessage(bus),
          },
        }),
        sweep: sweeper.sweep,
        stop: async () => {
          await Promise.all([
            sweeper.stop(),
            ...outcomes.map((d) => d.stop()),
            usage.stop(),
            paidLinks.stop(),
          ]);
        },
      };
    },
  });
}

/** billing as a process runs it, alone or beside the other services: see `@pasarela/server`. */
export const billingService = serviceModule("billing", {
  config: loadConfig,
  start: startBilling,
});
