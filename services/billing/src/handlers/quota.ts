import type { Handler } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { Kysely } from "kysely";
import type { CuotaAlertas } from "../flows/cuota-alertas.js";
import { isMetered, reserveUnit } from "../flows/quota.js";
import type { AccountingSettings } from "../flows/settings.js";
import type { BillingDatabase } from "../db/database.js";
import { makeQuotaRepository } from "../db/repositories/quota.js";

/** `billing.quota.reserve`: production only; a test call is never metered. */
export function makeQuotaReserve(deps: {
  db: Kysely<BillingDatabase>;
  settings: AccountingSettings;
  /** announces the thresholds a reservation crossed, once it committed */
  alertas?: Pick<CuotaAlertas, "flush">;
}): Handler<typeof billing.quotaReserve> {
  return async ({ resource, environment, ref }, ctx) => {
    const accountId = ctx.accountId;
    if (!isMetered(environment)) return ok({ metered: false });
    const reserved = await deps.db
      .transaction()
      .execute((trx) => reserveUnit(trx, deps.settings, { accountId, resource, ref }));
    if (!reserved.ok) return reserved;
    void deps.alertas?.flush();
    return ok({ metered: true });
  };
}

/** `billing.quota.commit`: the reservation counts (idempotent). */
export function makeQuotaCommit(deps: {
  db: Kysely<BillingDatabase>;
}): Handler<typeof billing.quotaCommit> {
  return async ({ ref }) => ok({ committed: await makeQuotaRepository(deps.db).commit(ref) });
}

/** `billing.quota.release`: the reservation never counts (idempotent). */
export function makeQuotaRelease(deps: {
  db: Kysely<BillingDatabase>;
}): Handler<typeof billing.quotaRelease> {
  return async ({ ref }) => ok({ released: await makeQuotaRepository(deps.db).release(ref) });
}
