import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The asynchronous issuances (`Prefer: respond-async`): a durable queue of admitted vouchers,
  // each carried out by whichever wsfe instance leases it (next_attempt_at is both when it is
  // due and, while an attempt runs, the end of that attempt's lease), retried through
  // authority outages until it ends. `llave` is the Idempotency-Key the issuance runs under
  // with billing: the caller's, or one of its own (`async:<id>`) when the caller sent none.
  await db.schema
    .createTable("emisiones")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("tipo", "text", (c) => c.notNull().check(sql`tipo in ('factura', 'exportacion')`))
    .addColumn("idempotency_key", "text")
    .addColumn("llave", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("request", "jsonb", (c) => c.notNull())
    .addColumn("estado", "text", (c) =>
      c
        .notNull()
        .defaultTo("pendiente")
        .check(sql`estado in ('pendiente', 'autorizado', 'rechazado', 'no_emitido')`),
    )
    // the first attempt runs under the admission made when it was queued
    .addColumn("admitted", "boolean", (c) => c.notNull())
    .addColumn("intentos", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_error", "jsonb")
    .addColumn("answer", "jsonb")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("finished_at", "timestamptz")
    .execute();
  // one issuance per key and account: a retry under the key finds it
  await db.schema
    .createIndex("emisiones_llave_uq")
    .on("emisiones")
    .columns(["account_id", "llave"])
    .unique()
    .execute();
  // the queue: what is due, oldest first
  await sql`create index emisiones_pendientes_idx on emisiones (next_attempt_at)
    where estado = 'pendiente'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("emisiones").execute();
}
