import { sql, type Kysely, type Selectable } from "kysely";
import type { BillingDatabase, PlansTable } from "../database.js";

export type PlanRow = Selectable<PlansTable>;

/** Accounts without an assignment are on this plan (seeded by the migration). */
export const DEFAULT_PLAN = "inicial";

export function makePlansRepository(db: Kysely<BillingDatabase>) {
  return {
    /** false when the name is taken */
    async create(plan: Omit<PlanRow, "created_at">): Promise<PlanRow | undefined> {
      return db
        .insertInto("plans")
        .values(plan)
        .onConflict((oc) => oc.column("name").doNothing())
        .returningAll()
        .executeTakeFirst();
    },
    async list(): Promise<PlanRow[]> {
      return db.selectFrom("plans").selectAll().orderBy("name").execute();
    },
    async find(name: string): Promise<PlanRow | undefined> {
      return db.selectFrom("plans").selectAll().where("name", "=", name).executeTakeFirst();
    },
    async assign(accountId: string, planName: string, at: Date): Promise<void> {
      await db
        .insertInto("account_plans")
        .values({ account_id: accountId, plan_name: planName, assigned_at: at })
        .onConflict((oc) =>
          oc.column("account_id").doUpdateSet({ plan_name: planName, assigned_at: at }),
        )
        .execute();
    },
    /** The account's plan and the day its periods are anchored on; undefined without account. */
    async ofAccount(accountId: string): Promise<{ plan: PlanRow; anchor: Date } | undefined> {
      const row = await db
        .selectFrom("accounts")
        .leftJoin("account_plans", "account_plans.account_id", "accounts.id")
        .innerJoin("plans", (join) =>
          join.on(
            "plans.name",
            "=",
            sql<string>`coalesce(account_plans.plan_name, ${DEFAULT_PLAN})`,
          ),
        )
        .select([
          "accounts.created_at as anchor",
          "plans.name",
          "plans.facturas_quota",
          "plans.padrones_quota",
          "plans.period_months",
          "plans.rejection_cap_per_hour",
          "plans.created_at",
        ])
        .where("accounts.id", "=", accountId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { anchor, ...plan } = row;
      return { plan, anchor };
    },
  };
}

export type PlansRepository = ReturnType<typeof makePlansRepository>;
