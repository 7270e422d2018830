import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
//
// The issuer each voucher prints, fixed at its first print: the profile copied when it was
// issued (or, for a voucher issued before vouchers kept it, the profile at that first print),
// completed from the registry. Every later copy and re-render prints the same.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("comprobante_emisores")
    // another service's account: no foreign key across schemas
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("pto_vta", "integer", (c) => c.notNull())
    .addColumn("cbte_tipo", "integer", (c) => c.notNull())
    .addColumn("cbte_nro", "bigint", (c) => c.notNull())
    .addColumn("emisor", "jsonb", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("comprobante_emisores_pkey", [
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
  await db.schema.dropTable("comprobante_emisores").execute();
}
