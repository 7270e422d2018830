import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Both secrets are sealed (AES-256-GCM), not hashed: deliveries sign with them. After a
  // rotation the previous one keeps signing beside the current one until it expires.
  await db.schema
    .createTable("endpoints")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull().check(sql`char_length(url) <= 2048`))
    .addColumn("eventos", sql`text[]`, (c) => c.notNull().check(sql`cardinality(eventos) >= 1`))
    .addColumn("descripcion", "text")
    .addColumn("activo", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("secreto", "bytea", (c) => c.notNull())
    .addColumn("secreto_anterior", "bytea")
    .addColumn("secreto_anterior_vence_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      "endpoints_secreto_anterior_vence",
      sql`(secreto_anterior is null) = (secreto_anterior_vence_at is null)`,
    )
    .execute();
  await db.schema
    .createIndex("endpoints_account_created")
    .on("endpoints")
    .columns(["account_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("endpoints").execute();
}
