import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // one payment-provider account per API account; both secrets sealed (AES-256-GCM)
  await db.schema
    .createTable("cuentas_proveedor")
    .addColumn("account_id", "uuid", (c) => c.primaryKey())
    .addColumn("provider", "text", (c) => c.notNull().check(sql`provider in ('mercadopago')`))
    .addColumn("access_token", "bytea", (c) => c.notNull())
    .addColumn("webhook_secret", "bytea", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("links")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("pto_vta", "integer", (c) => c.notNull())
    .addColumn("cbte_tipo", "integer", (c) => c.notNull())
    .addColumn("cbte_nro", "bigint", (c) => c.notNull())
    .addColumn("monto", "numeric(15, 2)", (c) => c.notNull().check(sql`monto > 0`))
    .addColumn("moneda", "text", (c) => c.notNull())
    .addColumn("vence", "timestamptz", (c) => c.notNull())
    .addColumn("estado", "text", (c) => c.notNull().check(sql`estado in ('pendiente', 'pagado')`))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("preference_id", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("payment_id", "text")
    .addColumn("pagado_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("links_account_created")
    .on("links")
    .columns(["account_id", "created_at"])
    .execute();
  // every notification handled, by the provider's request id: a replay finds it here
  await db.schema
    .createTable("notificaciones")
    .addColumn("request_id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("data_id", "text", (c) => c.notNull())
    .addColumn("received_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("notificaciones").execute();
  await db.schema.dropTable("links").execute();
  await db.schema.dropTable("cuentas_proveedor").execute();
}
