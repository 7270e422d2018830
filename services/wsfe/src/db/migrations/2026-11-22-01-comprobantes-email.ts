import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("comprobantes_email")
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("pto_vta", "integer", (c) => c.notNull())
    .addColumn("cbte_tipo", "integer", (c) => c.notNull())
    .addColumn("cbte_nro", "bigint", (c) => c.notNull())
    .addColumn("email_to", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("comprobantes_email_pk", [
      "account_id",
      "environment",
      "cuit",
      "pto_vta",
      "cbte_tipo",
      "cbte_nro",
    ])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("comprobantes_email").execute();
}
