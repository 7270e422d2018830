import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // When the informing's own event (caea_informado or caea_rechazado) reached JetStream:
  // `event_published_at` already tells the voucher's issuance event, so the sweep that sends
  // again what did not get out needs a mark of its own for the informing's.
  await db.schema.alterTable("comprobantes").addColumn("caea_evento_at", "timestamptz").execute();
  // what the informing job's sweep for unpublished events looks for
  await db.schema
    .createIndex("comprobantes_caea_evento_idx")
    .on("comprobantes")
    .column("updated_at")
    .where(sql<boolean>`caea_estado in ('informado', 'rechazado') and caea_evento_at is null`)
    .execute();
  // The fortnights with vouchers still uninformed 48 h before their FchTopeInf, once per
  // account, representada and fortnight: the owner's e-mail goes out until `avisado_at` is set.
  await db.schema
    .createTable("caea_informe_avisos")
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("periodo", "integer", (c) => c.notNull())
    .addColumn("orden", "smallint", (c) => c.notNull())
    .addColumn("avisado_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("caea_informe_avisos_pk", [
      "account_id",
      "environment",
      "cuit",
      "periodo",
      "orden",
    ])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("caea_informe_avisos").execute();
  await db.schema.dropIndex("comprobantes_caea_evento_idx").execute();
  await db.schema.alterTable("comprobantes").dropColumn("caea_evento_at").execute();
}
