import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
//
// The expiry notices announced per certificate: one row per certificate and notice (30, 7 and
// 1 days before notAfter, then expired), with the event it is announced by, so a notice is
// decided once across instances and restarts and re-announced until it got out.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("certificado_avisos")
    .addColumn("certificate_id", "uuid", (c) =>
      c.notNull().references("certificates.id").onDelete("cascade"),
    )
    .addColumn("aviso", "text", (c) => c.notNull().check(sql`aviso in ('30', '7', '1', 'vencido')`))
    .addColumn("event", "jsonb", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("published_at", "timestamptz")
    .addPrimaryKeyConstraint("certificado_avisos_pk", ["certificate_id", "aviso"])
    .execute();
  await db.schema
    .createIndex("certificado_avisos_unpublished_idx")
    .on("certificado_avisos")
    .column("created_at")
    .where(sql.ref("published_at"), "is", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("certificado_avisos").execute();
}
