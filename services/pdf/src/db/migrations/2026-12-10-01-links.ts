import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("links")
    // SHA-256 of the token: the token itself is never stored
    .addColumn("token_hash", "bytea", (c) => c.primaryKey())
    // another service's account: no foreign key across schemas
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("pto_vta", "integer", (c) => c.notNull())
    .addColumn("cbte_tipo", "integer", (c) => c.notNull())
    .addColumn("cbte_nro", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("links").execute();
}
