import type { Environment, billing } from "@pasarela/contracts";
import type { Kysely } from "kysely";
import type { BillingDatabase } from "../db/database.js";
import {
  makeIdempotencyRepository,
  type IdempotencyRecord,
} from "../db/repositories/idempotency.js";
import { makeQuotaRepository } from "../db/repositories/quota.js";
import { makeRejectionsRepository } from "../db/repositories/rejections.js";
import { storedAnswer } from "../domain/stored-answer.js";
import { isMetered } from "./quota.js";

/** How one admitted issuance attempt ended, as its outcome event tells it. */
export interface IssuanceOutcome {
  accountId: string;
  environment: Environment;
  /** the request id of the admitted attempt: its quota hold and rejection are keyed by it */
  ref: string;
  idempotencyKey?: string | null | undefined;
  outcome: billing.FacturaOutcome;
  /** a CAE was obtained: a production one commits its quota */
  authorized: boolean;
  /** the answer to replay; undefined when it is not known (the record is left as it is) */
  answer?: billing.FacturaAnswer | undefined;
  /** a 422 issuance rejection, the authority's or the totals rules': the rejection cap counts it */
  isRejection: boolean;
  at: Date;
  /** the event this outcome comes from: applied once however often it is delivered */
  eventId: string;
}

/**
 * Applies an outcome event once, however it arrives (handed over by the issuance flow or
 * delivered by JetStream): the idempotency record keeps the first final answer, a production
 * CAE commits its reservation (or writes the commit when the reservation already expired), any
 * other final answer or a refusal releases it, and a rejection is counted once per attempt. An
 * unknown outcome keeps the reservation (its expiry releases it) and the key bound to the
 * attempt, to be looked up by the next request under it.
 *
 * Answers what the key replays from now on (the first answer stored), if anything.
 */
export async function applyOutcome(
  db: Kysely<BillingDatabase>,
  o: IssuanceOutcome,
): Promise<billing.FacturaAnswer | undefined> {
  return db.transaction().execute(async (trx) => {
    const records = makeIdempotencyRepository(trx);
    const key = o.idempotencyKey ?? undefined;
    const stored = (record: IdempotencyRecord | undefined) =>
      record?.state === "complete" && record.body !== null
        ? storedAnswer(record.status, record.body)
        : undefined;
    const replayed = async () =>
      key === undefined ? undefined : stored(await records.lockFor(o.accountId, key));
    const fresh = await trx
      .insertInto("handled_events")
      .values({ id: o.eventId })
      .onConflict((oc) => oc.column("id").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (!fresh) return replayed();

    const quota = makeQuotaRepository(trx);
    const record = key === undefined ? undefined : await records.lockFor(o.accountId, key);
    const ownRecord = record?.request_id === o.ref ? record : undefined;
    // what the key replays once this outcome is applied: a complete record keeps its answer
    let answer = stored(record);
    switch (o.outcome) {
      case "final":
        if (ownRecord && o.answer !== undefined && ownRecord.state !== "complete") {
          await records.complete(o.accountId, ownRecord.key, o.answer);
          answer = o.answer;
        }
        if (o.authorized && isMetered(o.environment)) {
          await quota.commit(o.ref, { accountId: o.accountId, resource: "facturas", at: o.at });
        } else {
          await quota.release(o.ref);
        }
        if (o.isRejection) {
          await makeRejectionsRepository(trx).record({
            ref: o.ref,
            accountId: o.accountId,
            environment: o.environment,
            at: o.at,
          });
        }
        break;
      case "unknown":
        if (ownRecord) await records.markUnknown(o.accountId, ownRecord.key);
        break;
      case "refused":
        if (ownRecord && ownRecord.state !== "complete") {
          await records.remove(o.accountId, ownRecord.key);
        }
        await quota.release(o.ref);
        break;
    }
    return answer;
  });
}
