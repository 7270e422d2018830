import { startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import type { BillingConfig } from "./config.js";
import type { BillingDatabase } from "./db/database.js";
import { migrations, schema } from "./db/migrations/index.js";
import { billingBindings } from "./service.js";

export { loadConfig, type BillingConfig } from "./config.js";
export { migrations, schema } from "./db/migrations/index.js";

/** Starts the billing service on the bus; used by main.ts and by tests in-process. */
export async function startBilling(
  config: BillingConfig,
  logger?: Logger,
): Promise<RunningService<object>> {
  return startService<BillingDatabase, object>({
    name: "billing",
    settings: config,
    database: { schema, migrations },
    ...(logger ? { logger } : {}),
    start: async ({ bus, db }) => {
      await bus.ensureEventStream();
      return { bindings: billingBindings({ db: db!.db, bus, pepper: config.API_KEY_PEPPER }) };
    },
  });
}
