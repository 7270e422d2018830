import type { Environment } from "@pasarela/contracts";
import { appError, fail, ok, type Result } from "@pasarela/errors";
import type { Kysely } from "kysely";
import type { BillingDatabase, QuotaResource } from "../db/database.js";
import type { PlanRow } from "../db/repositories/plans.js";
import { makePlansRepository } from "../db/repositories/plans.js";
import { makeCuotaAlertasRepository } from "../db/repositories/cuota-alertas.js";
import { makeQuotaRepository } from "../db/repositories/quota.js";
import { umbralesCruzados } from "../domain/cuota-alerta.js";
import { periodAt, type Period } from "../domain/period.js";
import type { AccountingSettings } from "./settings.js";

/** Only production is metered: test calls consume nothing. */
export const isMetered = (environment: Environment) => environment === "produccion";

const exhausted = {
  facturas: "QUOTA_FACTURAS_EXHAUSTED",
  padrones: "QUOTA_PADRONES_EXHAUSTED",
} as const;

export const quotaOf = (plan: PlanRow, resource: QuotaResource) =>
  resource === "facturas" ? plan.facturas_quota : plan.padrones_quota;

/** The account's plan and current period; undefined for an account that does not exist. */
export async function planAndPeriod(
  db: Kysely<BillingDatabase>,
  accountId: string,
  now: Date,
): Promise<{ plan: PlanRow; period: Period } | undefined> {
  const found = await makePlansRepository(db).ofAccount(accountId);
  if (!found) return undefined;
  return { plan: found.plan, period: periodAt(found.anchor, found.plan.period_months, now) };
}

/**
 * Takes one unit of `resource` under `ref`, or answers its 402. Must run inside a
 * transaction: the advisory lock it takes is held until that transaction ends. `known` is
 * the plan and period the caller already read in that transaction, if it did. A unit that
 * takes the period's use to 80 or 100 per cent of the quota records that crossing in the same
 * transaction; the caller announces it once committed (flows/cuota-alertas.ts).
 */
export async function reserveUnit(
  trx: Kysely<BillingDatabase>,
  settings: AccountingSettings,
  hold: { accountId: string; resource: QuotaResource; ref: string },
  known?: { plan: PlanRow; period: Period },
): Promise<Result<void>> {
  const now = settings.now();
  const quota = makeQuotaRepository(trx);
  const current = known ?? (await planAndPeriod(trx, hold.accountId, now));
  if (!current) return fail(appError(exhausted[hold.resource]));
  await quota.lock(hold.accountId, hold.resource);
  const used = await quota.used(hold.accountId, hold.resource, current.period, now);
  const limit = quotaOf(current.plan, hold.resource);
  if (used >= limit) {
    // the same call asking again holds its unit already (it may be the period's last)
    if (await quota.holds(hold.ref, now)) return ok(undefined);
    return fail(appError(exhausted[hold.resource]));
  }
  const taken = await quota.reserve({
    ...hold,
    at: now,
    expiresAt: new Date(now.getTime() + settings.reservationTtlMs),
  });
  if (taken) {
    for (const umbral of umbralesCruzados(used, used + 1, limit)) {
      await makeCuotaAlertasRepository(trx).record({
        accountId: hold.accountId,
        resource: hold.resource,
        period: current.period,
        umbral,
        used: used + 1,
        quota: limit,
        at: now,
      });
    }
  }
  return ok(undefined);
}
