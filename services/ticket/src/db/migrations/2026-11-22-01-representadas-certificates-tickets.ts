import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("representadas")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("alias", "text", (c) => c.notNull())
    .addColumn("pto_vta", "integer")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("representadas_account_cuit_environment_key", [
      "account_id",
      "cuit",
      "environment",
    ])
    .execute();
  await db.schema
    .createTable("certificates")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("representada_id", "uuid", (c) =>
      c.notNull().references("representadas.id").onDelete("cascade"),
    )
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending', 'active', 'replaced', 'cancelled')`),
    )
    .addColumn("private_key_sealed", "bytea", (c) => c.notNull())
    .addColumn("csr_pem", "text")
    .addColumn("certificate_pem", "text")
    .addColumn("fingerprint", "text")
    .addColumn("not_before", "timestamptz")
    .addColumn("not_after", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("activated_at", "timestamptz")
    .execute();
  // at most one active certificate and one pending CSR per representada
  await db.schema
    .createIndex("certificates_one_active_idx")
    .on("certificates")
    .column("representada_id")
    .unique()
    .where(sql.ref("status"), "=", "active")
    .execute();
  await db.schema
    .createIndex("certificates_one_pending_idx")
    .on("certificates")
    .column("representada_id")
    .unique()
    .where(sql.ref("status"), "=", "pending")
    .execute();
  // The authority keeps one TA per X.509 certificate and service (and refuses another while
  // one is valid), and one certificate may be registered for several representadas, in several
  // accounts: the key is the certificate's fingerprint, not our row, so every registration
  // shares one TA. No foreign key: a shared TA belongs to no single registration.
  await db.schema
    .createTable("access_tickets")
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("service", "text", (c) => c.notNull())
    .addColumn("token_sealed", "bytea")
    .addColumn("sign_sealed", "bytea")
    .addColumn("generated_at", "timestamptz")
    .addColumn("expires_at", "timestamptz")
    .addColumn("retry_at", "timestamptz")
    .addColumn("pending_until", "timestamptz")
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("access_tickets_pkey", ["environment", "fingerprint", "service"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("access_tickets").execute();
  await db.schema.dropTable("certificates").execute();
  await db.schema.dropTable("representadas").execute();
}
