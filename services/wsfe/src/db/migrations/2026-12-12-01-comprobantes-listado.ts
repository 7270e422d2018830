import type { Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// The dashboard's list (wsfe.comprobante.list): one account's vouchers of one environment,
// newest first, paged by (created_at, id).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("comprobantes_account_listado_idx")
    .on("comprobantes")
    .columns(["account_id", "environment", "created_at desc", "id desc"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("comprobantes_account_listado_idx").execute();
}
