import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
//
// The issuer profile the printed voucher shows: one row per representada, every field
// optional (a voucher prints with what is known). The logo is kept as its bytes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("representada_perfiles")
    .addColumn("representada_id", "uuid", (c) =>
      c.primaryKey().references("representadas.id").onDelete("cascade"),
    )
    .addColumn("razon_social", "text")
    .addColumn("domicilio_comercial", "text")
    .addColumn("condicion_iva", "text")
    .addColumn("ingresos_brutos", "text")
    .addColumn("inicio_actividades", "text")
    .addColumn("logo_media_type", "text")
    .addColumn("logo", "bytea")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      "representada_perfiles_logo_pair",
      sql`(logo is null) = (logo_media_type is null)`,
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("representada_perfiles").execute();
}
