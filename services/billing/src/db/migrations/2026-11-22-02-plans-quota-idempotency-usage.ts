import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("plans")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("facturas_quota", "integer", (c) => c.notNull().check(sql`facturas_quota >= 0`))
    .addColumn("padrones_quota", "integer", (c) => c.notNull().check(sql`padrones_quota >= 0`))
    .addColumn("period_months", "integer", (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`period_months between 1 and 12`),
    )
    .addColumn("rejection_cap_per_hour", "integer", (c) =>
      c
        .notNull()
        .defaultTo(50)
        .check(sql`rejection_cap_per_hour >= 0`),
    )
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`insert into plans (name, facturas_quota, padrones_quota, period_months, rejection_cap_per_hour)
            values ('inicial', 100, 500, 1, 50)`.execute(db);

  // without a row an account is on the default plan `inicial`
  await db.schema
    .createTable("account_plans")
    .addColumn("account_id", "uuid", (c) => c.primaryKey().references("accounts.id"))
    .addColumn("plan_name", "text", (c) => c.notNull().references("plans.name"))
    .addColumn("assigned_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // one row per metered call: `reserved` until the call ends (expires_at bounds a crash),
  // `committed` once it counts; a released reservation is deleted
  await db.schema
    .createTable("quota_holds")
    .addColumn("ref", "text", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("resource", "text", (c) =>
      c.notNull().check(sql`resource in ('facturas', 'padrones')`),
    )
    .addColumn("state", "text", (c) => c.notNull().check(sql`state in ('reserved', 'committed')`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("quota_holds_account_idx")
    .on("quota_holds")
    .columns(["account_id", "resource", "created_at"])
    .execute();

  await db.schema
    .createTable("rejections")
    .addColumn("ref", "text", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("occurred_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("rejections_window_idx")
    .on("rejections")
    .columns(["account_id", "environment", "occurred_at"])
    .execute();

  await db.schema
    .createTable("idempotency_records")
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) =>
      c.notNull().check(sql`state in ('in_flight', 'unknown', 'complete')`),
    )
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("status", "integer")
    // the JSON text as answered: jsonb would reorder its keys
    .addColumn("body", "text")
    .addColumn("locked_until", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_records_pk", ["account_id", "key"])
    .execute();
  await db.schema
    .createIndex("idempotency_records_expiry_idx")
    .on("idempotency_records")
    .column("expires_at")
    .execute();

  // outcome events already applied (at-least-once delivery)
  await db.schema
    .createTable("handled_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("handled_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("usage_records")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    // null for what happened without an API key: a payment the provider confirmed
    .addColumn("key_id", "uuid")
    .addColumn("at", "timestamptz", (c) => c.notNull())
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("route", "text", (c) => c.notNull())
    .addColumn("environment", "text")
    .addColumn("representada", "text")
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("code", "text")
    .addColumn("latency_ms", "real", (c) => c.notNull())
    .addColumn("quota_consumed", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex("usage_records_account_idx")
    .on("usage_records")
    .columns(["account_id", "at desc", "id desc"])
    .execute();
  await db.schema.createIndex("usage_records_at_idx").on("usage_records").column("at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "usage_records",
    "handled_events",
    "idempotency_records",
    "rejections",
    "quota_holds",
    "account_plans",
    "plans",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
