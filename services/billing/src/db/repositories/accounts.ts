import type { Kysely } from "kysely";
import type { BillingDatabase } from "../database.js";

export function makeAccountsRepository(db: Kysely<BillingDatabase>) {
  return {
    async create(id: string, name: string): Promise<void> {
      await db.insertInto("accounts").values({ id, name }).execute();
    },
    async exists(id: string): Promise<boolean> {
      const row = await db
        .selectFrom("accounts")
        .select("id")
        .where("id", "=", id)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

export type AccountsRepository = ReturnType<typeof makeAccountsRepository>;
