import type { Handler } from "@pasarela/bus";
import type { billing, Environment, ReplyInputOf } from "@pasarela/contracts";
import { appError, fail, ok, rejectionCap, type Result } from "@pasarela/errors";
import type { Kysely } from "kysely";
import type { CuotaAlertas } from "../flows/cuota-alertas.js";
import { isMetered, planAndPeriod, reserveUnit } from "../flows/quota.js";
import type { AccountingSettings } from "../flows/settings.js";
import type { BillingDatabase } from "../db/database.js";
import { makeIdempotencyRepository } from "../db/repositories/idempotency.js";
import { makeRejectionsRepository } from "../db/repositories/rejections.js";
import { capClearsAt } from "../domain/period.js";
import { storedAnswer } from "../domain/stored-answer.js";

type Admission = Result<ReplyInputOf<typeof billing.facturaAdmit>>;

/** A refusal that comes after the transaction wrote: thrown, so that what it wrote rolls back. */
class Undone extends Error {
  constructor(readonly admission: Admission) {
    super("admission undone");
  }
}

/**
 * `billing.factura.admit`, the first step of an issuance, in one transaction: the key's record
 * (replay, 422 for another body, 409 while in flight), then the rejection cap (429), then the
 * production quota (402), and only then the key is bound. A refusal writes nothing.
 */
export function makeFacturaAdmit(deps: {
  db: Kysely<BillingDatabase>;
  settings: AccountingSettings;
  /** announces the quota thresholds an admission crossed, once it committed */
  alertas?: Pick<CuotaAlertas, "flush">;
}): Handler<typeof billing.facturaAdmit> {
  return async (request, ctx): Promise<Admission> => {
    const accountId = ctx.accountId;
    const { environment, idempotencyKey: key, fingerprint } = request;
    const admitting = deps.db.transaction().execute(async (trx): Promise<Admission> => {
      const now = deps.settings.now();
      const records = makeIdempotencyRepository(trx);
      if (key !== undefined) {
        const record = await records.lockFor(accountId, key);
        if (record && record.expires_at <= now) {
          await records.remove(accountId, key);
        } else if (record) {
          if (record.fingerprint !== fingerprint) return fail(appError("IDEMPOTENCY_KEY_REUSED"));
          // the same request asked again (its first asking went unanswered): already admitted
          if (record.request_id === ctx.requestId && record.state === "in_flight") {
            return ok({ decision: "proceed", leaseMs: deps.settings.issuanceLeaseMs });
          }
          const answer =
            record.state === "complete" && record.body !== null
              ? storedAnswer(record.status, record.body)
              : undefined;
          if (answer) return ok({ decision: "replay", answer });
          if (record.state === "in_flight" && record.locked_until && record.locked_until > now) {
            return fail(appError("IDEMPOTENCY_IN_PROGRESS"));
          }
          // the first attempt may have been issued: look it up before issuing anything
          return ok({ decision: "resolve", requestId: record.request_id });
        }
      }

      const refused = await admitNew(trx, deps.settings, accountId, environment, ctx.requestId);
      if (!refused.ok) return refused;
      if (key !== undefined) {
        const bound = await records.bind({
          accountId,
          key,
          fingerprint: fingerprint ?? "",
          environment,
          requestId: ctx.requestId,
          at: now,
          lockedUntil: new Date(now.getTime() + deps.settings.issuanceLeaseMs),
          expiresAt: new Date(now.getTime() + deps.settings.idempotencyTtlMs),
        });
        // another request bound the key after this one found it free: the unit reserved
        // above is not this one's to keep (left, it would count until it expires)
        if (!bound) throw new Undone(fail(appError("IDEMPOTENCY_IN_PROGRESS")));
      }
      return ok(
        key === undefined
          ? { decision: "proceed" }
          : { decision: "proceed", leaseMs: deps.settings.issuanceLeaseMs },
      );
    });
    const admission = await admitting.catch((error: unknown) => {
      if (error instanceof Undone) return error.admission;
      throw error;
    });
    if (admission.ok && admission.value.decision === "proceed") void deps.alertas?.flush();
    return admission;
  };
}

/** The rejection cap of the environment, then one unit of production quota. */
async function admitNew(
  trx: Kysely<BillingDatabase>,
  settings: AccountingSettings,
  accountId: string,
  environment: Environment,
  ref: string,
): Promise<Result<void>> {
  const now = settings.now();
  const current = await planAndPeriod(trx, accountId, now);
  if (!current) return fail(appError("UNAUTHORIZED"));
  const cap = current.plan.rejection_cap_per_hour;
  const window = await makeRejectionsRepository(trx).inWindow(accountId, environment, now);
  const clears = capClearsAt(window, cap);
  if (clears) {
    const seconds = Math.max(1, Math.ceil((clears.getTime() - now.getTime()) / 1000));
    return fail(rejectionCap(seconds, clears, cap));
  }
  if (!isMetered(environment)) return ok(undefined);
  return reserveUnit(trx, settings, { accountId, resource: "facturas", ref }, current);
}
