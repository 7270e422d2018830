import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
//
// The issuer's e-mail: replies to the vouchers it sends by e-mail go there.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("representada_perfiles").addColumn("email", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("representada_perfiles").dropColumn("email").execute();
}
