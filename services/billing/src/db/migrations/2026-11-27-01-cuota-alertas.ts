import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * The quota thresholds each account crossed per period, one row per threshold: recorded in the
 * reservation's transaction, announced (`evt.billing.cuota.alerta`) after it, and announced
 * again by the sweeper while `published_at` is null.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("cuota_alertas")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull().references("accounts.id"))
    .addColumn("resource", "text", (c) => c.notNull())
    .addColumn("period_start", "timestamptz", (c) => c.notNull())
    .addColumn("period_end", "timestamptz", (c) => c.notNull())
    .addColumn("umbral", "integer", (c) => c.notNull().check(sql`umbral in (80, 100)`))
    .addColumn("used", "integer", (c) => c.notNull())
    .addColumn("quota", "integer", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("published_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("cuota_alertas_unpublished_idx")
    .on("cuota_alertas")
    .column("created_at")
    .where(sql.ref("published_at"), "is", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("cuota_alertas").execute();
}
