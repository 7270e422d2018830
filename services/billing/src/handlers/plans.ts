import type { Handler } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { Kysely } from "kysely";
import { planAndPeriod, quotaOf } from "../flows/quota.js";
import type { AccountingSettings } from "../flows/settings.js";
import type { BillingDatabase, QuotaResource } from "../db/database.js";
import { makePlansRepository, type PlanRow } from "../db/repositories/plans.js";
import { makeQuotaRepository } from "../db/repositories/quota.js";

const periodoOf = (months: number): billing.Periodo =>
  (Object.entries(billing.PERIODOS).find(([, m]) => m === months)?.[0] as
    billing.Periodo | undefined) ?? "mensual";

export const planReply = (row: PlanRow): billing.Plan => ({
  name: row.name,
  facturas: row.facturas_quota,
  padrones: row.padrones_quota,
  periodo: periodoOf(row.period_months),
  rejectionCapPerHour: row.rejection_cap_per_hour,
});

export function makePlanCreate(db: Kysely<BillingDatabase>): Handler<typeof billing.planCreate> {
  return async (request, ctx) => {
    const row = await makePlansRepository(db).create({
      name: request.name,
      facturas_quota: request.facturas,
      padrones_quota: request.padrones,
      period_months: billing.PERIODOS[request.periodo],
      rejection_cap_per_hour: request.rejectionCapPerHour,
    });
    if (!row) return fail(appError("PLAN_DUPLICATE"));
    ctx.logger.info({ plan: row.name }, "plan created");
    return ok(planReply(row));
  };
}

export function makePlanList(db: Kysely<BillingDatabase>): Handler<typeof billing.planList> {
  return async () => ok({ plans: (await makePlansRepository(db).list()).map(planReply) });
}

export function makePlanAssign(deps: {
  db: Kysely<BillingDatabase>;
  settings: AccountingSettings;
}): Handler<typeof billing.planAssign> {
  return async ({ accountId, plan: name }, ctx) => {
    const plans = makePlansRepository(deps.db);
    const plan = await plans.find(name);
    if (!plan) return fail(appError("PLAN_NOT_FOUND"));
    if (!(await plans.ofAccount(accountId))) return fail(appError("ACCOUNT_NOT_FOUND"));
    await plans.assign(accountId, name, deps.settings.now());
    ctx.logger.info({ accountId, plan: name }, "plan assigned");
    return ok({ accountId, plan: planReply(plan) });
  };
}

/** The plan and this period's use of each quota; shared by the CLI and /api/uso/resumen. */
export async function accountUsage(
  db: Kysely<BillingDatabase>,
  settings: AccountingSettings,
  accountId: string,
): Promise<billing.AccountUsage | undefined> {
  const now = settings.now();
  const current = await planAndPeriod(db, accountId, now);
  if (!current) return undefined;
  const quota = makeQuotaRepository(db);
  const use = async (resource: QuotaResource) => {
    const total = quotaOf(current.plan, resource);
    const used = await quota.used(accountId, resource, current.period, now);
    return { quota: total, used, left: Math.max(0, total - used) };
  };
  const [facturas, padrones] = await Promise.all([use("facturas"), use("padrones")]);
  return {
    accountId,
    plan: planReply(current.plan),
    periodStart: current.period.start.toISOString(),
    periodEnd: current.period.end.toISOString(),
    facturas,
    padrones,
  };
}

export function makeAccountUsage(deps: {
  db: Kysely<BillingDatabase>;
  settings: AccountingSettings;
}): Handler<typeof billing.accountUsage> {
  return async ({ accountId }) => {
    const usage = await accountUsage(deps.db, deps.settings, accountId);
    return usage ? ok(usage) : fail(appError("ACCOUNT_NOT_FOUND"));
  };
}
