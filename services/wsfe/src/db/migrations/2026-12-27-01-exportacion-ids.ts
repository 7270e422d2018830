import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The next FEXAuthorize request `Id` per CUIT and environment. The authority answers a
  // re-sent Id with the CAE it already granted, so an Id is the export voucher's idempotency
  // key at the authority: each voucher gets its own, stored with it before the call and sent
  // again unchanged. Seeded once from FEXGetLast_ID, then taken from here (one statement per
  // batch, atomic across instances); ids are never given back, so gaps are harmless.
  await db.schema
    .createTable("exportacion_ids")
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("next_id", "bigint", (c) => c.notNull().check(sql`next_id > 0`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("exportacion_ids_pk", ["environment", "cuit"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("exportacion_ids").execute();
}
