import type { Handler } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { appError, fail, invalidCursor, ok } from "@pasarela/errors";
import type { PageCursors } from "@pasarela/sealing";
import type { Kysely } from "kysely";
import type { AccountingSettings } from "../flows/settings.js";
import type { BillingDatabase } from "../db/database.js";
import { makeUsageRepository, type UsageRow } from "../db/repositories/usage.js";
import { parseUsagePosition, usagePositionText } from "../domain/cursor.js";
import { accountUsage } from "./plans.js";

const recordOf = (row: UsageRow): billing.UsageRecord => ({
  id: row.id,
  at: row.at.toISOString(),
  keyId: row.key_id,
  method: row.method,
  route: row.route,
  environment: row.environment as billing.UsageRecord["environment"],
  representada: row.representada,
  status: row.status,
  code: row.code,
  latencyMs: row.latency_ms,
  quotaConsumed: row.quota_consumed,
});

/**
 * `billing.usage.list`: only ever the calling account's history. The cursor holds the last
 * row's position, sealed to the account, this list and its filters.
 */
export function makeUsageList(deps: {
  db: Kysely<BillingDatabase>;
  cursors: PageCursors;
}): Handler<typeof billing.usageList> {
  const usage = makeUsageRepository(deps.db);
  return async (request, ctx) => {
    const { cursor: given, limit: _limit, ...filters } = request;
    const scope = { list: billing.usageList.subject, accountId: ctx.accountId, filters };
    const opened = given === undefined ? undefined : deps.cursors.read(scope, given);
    const cursor = opened === undefined ? undefined : parseUsagePosition(opened);
    if (given !== undefined && !cursor) return fail(invalidCursor());
    const rows = await usage.list(
      ctx.accountId,
      {
        from: request.from === undefined ? undefined : new Date(request.from),
        to: request.to === undefined ? undefined : new Date(request.to),
        route: request.route,
        status: request.status,
        environment: request.environment,
      },
      request.limit,
      cursor,
    );
    const page = rows.slice(0, request.limit);
    const last = page.at(-1);
    return ok({
      items: page.map(recordOf),
      nextCursor:
        rows.length > request.limit && last
          ? deps.cursors.issue(scope, usagePositionText({ at: last.at.toISOString(), id: last.id }))
          : null,
    });
  };
}

/** `billing.usage.summary`: per-day counts by status (this period by default) and quota. */
export function makeUsageSummary(deps: {
  db: Kysely<BillingDatabase>;
  settings: AccountingSettings;
}): Handler<typeof billing.usageSummary> {
  const usage = makeUsageRepository(deps.db);
  return async (request, ctx) => {
    const quota = await accountUsage(deps.db, deps.settings, ctx.accountId);
    if (!quota) return fail(appError("UNAUTHORIZED"));
    const from = new Date(request.from ?? quota.periodStart);
    const to = request.to === undefined ? deps.settings.now() : new Date(request.to);
    const days = new Map<
      string,
      { fecha: string; total: number; porStatus: Record<string, number> }
    >();
    for (const { fecha, status, n } of await usage.perDay(
      ctx.accountId,
      from,
      new Date(to.getTime() + 1),
    )) {
      const day = days.get(fecha) ?? { fecha, total: 0, porStatus: {} };
      day.total += n;
      day.porStatus[String(status)] = n;
      days.set(fecha, day);
    }
    return ok({
      plan: quota.plan,
      periodStart: quota.periodStart,
      periodEnd: quota.periodEnd,
      facturas: quota.facturas,
      padrones: quota.padrones,
      dias: [...days.values()],
    });
  };
}
