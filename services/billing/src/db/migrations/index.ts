import type { Migration } from "@pasarela/db";
import * as accountsAndKeys from "./2026-11-22-01-accounts-and-keys.js";
import * as plansQuotaIdempotencyUsage from "./2026-11-22-02-plans-quota-idempotency-usage.js";
import * as usersSoporte from "./2026-11-22-03-users-soporte.js";
import * as usageByKey from "./2026-11-22-04-usage-by-key.js";
import * as cuotaAlertas from "./2026-11-27-01-cuota-alertas.js";
import * as quotaVoided from "./2026-11-27-02-quota-voided.js";

export const schema = "billing";

/** In order; names are dated so they sort as they were written. */
export const migrations: Record<string, Migration> = {
  "2026-11-22-01-accounts-and-keys": accountsAndKeys,
  "2026-11-22-02-plans-quota-idempotency-usage": plansQuotaIdempotencyUsage,
  "2026-11-22-03-users-soporte": usersSoporte,
  "2026-11-22-04-usage-by-key": usageByKey,
  "2026-11-27-01-cuota-alertas": cuotaAlertas,
  "2026-11-27-02-quota-voided": quotaVoided,
};
