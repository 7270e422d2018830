import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per endpoint and event: the unique pair makes a redelivered event create nothing
  // twice. The row is the work item and its log at once: the worker picks the due ones.
  await db.schema
    .createTable("entregas")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("endpoint_id", "uuid", (c) =>
      c.notNull().references("endpoints.id").onDelete("cascade"),
    )
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("tipo", "text", (c) => c.notNull())
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`status in ('pending', 'delivered', 'failed')`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_status_code", "integer")
    .addColumn("last_error", "text")
    .addColumn("latency_ms", "integer")
    .addColumn("next_attempt_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("entregas_endpoint_event", ["endpoint_id", "event_id"])
    .addCheckConstraint(
      "entregas_pending_scheduled",
      sql`(status = 'pending') = (next_attempt_at is not null)`,
    )
    .execute();
  await db.schema
    .createIndex("entregas_due")
    .on("entregas")
    .column("next_attempt_at")
    .where(sql.ref("status"), "=", "pending")
    .execute();
  await db.schema
    .createIndex("entregas_endpoint_created")
    .on("entregas")
    .columns(["endpoint_id", "created_at", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("entregas").execute();
}
