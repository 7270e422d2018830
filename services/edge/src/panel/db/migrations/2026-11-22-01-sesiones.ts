import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("sessions")
    // SHA-256 of the random session id; the id itself lives only in the browser's cookie
    .addColumn("id_hash", "bytea", (c) => c.primaryKey())
    // billing's user and account: no foreign key across schemas
    .addColumn("user_id", "uuid", (c) => c.notNull())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("user_name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    // the key of this session's form tokens (HMAC); never sent to the browser
    .addColumn("csrf_secret", "bytea", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_seen_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // the absolute end, whatever the activity
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("revoked_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("sessions_user_live_idx")
    .on("sessions")
    .column("user_id")
    .where(sql.ref("revoked_at"), "is", null)
    .execute();
  await db.schema.createIndex("sessions_expires_idx").on("sessions").column("expires_at").execute();

  // One-time messages carried across a redirect (a new API key's secret): sealed with a key
  // derived from the raw session id, so the database alone cannot read them; read once, deleted.
  await db.schema
    .createTable("flashes")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("session_hash", "bytea", (c) =>
      c.notNull().references("sessions.id_hash").onDelete("cascade"),
    )
    .addColumn("sealed", "bytea", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("flashes_session_idx").on("flashes").column("session_hash").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("flashes").execute();
  await db.schema.dropTable("sessions").execute();
}
