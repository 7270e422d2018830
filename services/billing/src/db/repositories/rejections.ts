import type { Kysely } from "kysely";
import type { Environment } from "@pasarela/contracts";
import type { BillingDatabase } from "../database.js";
import { REJECTION_WINDOW_MS } from "../../domain/period.js";

/** Issuance rejections (422) per account and environment, for the rolling-hour cap. */
export function makeRejectionsRepository(db: Kysely<BillingDatabase>) {
  return {
    /** Counted once per issuance attempt (`ref`), whoever reports it first. */
    async record(r: {
      ref: string;
      accountId: string;
      environment: Environment;
      at: Date;
    }): Promise<void> {
      await db
        .insertInto("rejections")
        .values({
          ref: r.ref,
          account_id: r.accountId,
          environment: r.environment,
          occurred_at: r.at,
        })
        .onConflict((oc) => oc.column("ref").doNothing())
        .execute();
    },
    /** The times of the rejections in the hour before `now`, oldest first. */
    async inWindow(accountId: string, environment: Environment, now: Date): Promise<Date[]> {
      const rows = await db
        .selectFrom("rejections")
        .select("occurred_at")
        .where("account_id", "=", accountId)
        .where("environment", "=", environment)
        .where("occurred_at", ">", new Date(now.getTime() - REJECTION_WINDOW_MS))
        .where("occurred_at", "<=", now)
        .orderBy("occurred_at")
        .execute();
      return rows.map((r) => r.occurred_at);
    },
    async sweep(now: Date): Promise<void> {
      await db
        .deleteFrom("rejections")
        .where("occurred_at", "<", new Date(now.getTime() - 2 * REJECTION_WINDOW_MS))
        .execute();
    },
  };
}

export type RejectionsRepository = ReturnType<typeof makeRejectionsRepository>;
