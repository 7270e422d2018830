import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
//
// The login of a TA used to be serialised by a transaction advisory lock held for the whole
// WSAA call, pinning one pooled connection per login in progress. The lease replaces it: taken
// and given back with one short statement each, it holds no connection while WSAA answers, and
// a holder that dies leaves a lease that simply runs out.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("access_tickets")
    .addColumn("login_owner", "uuid")
    .addColumn("login_lease_until", "timestamptz")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("access_tickets")
    .dropColumn("login_owner")
    .dropColumn("login_lease_until")
    .execute();
}
