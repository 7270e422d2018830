import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // dashboard users: e-mails are stored lower-cased (the contracts normalise them)
  await db.schema
    .createTable("users")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull().references("accounts.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    // PHC string: $scrypt$ln=15,r=8,p=1$<salt>$<hash>, parameters kept with each hash
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('owner', 'member')`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("password_changed_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("users_email_key").on("users").column("email").unique().execute();
  await db.schema.createIndex("users_account_idx").on("users").column("account_id").execute();

  // failed logins (and attempts in progress) by e-mail address and by IP, for the throttle
  await db.schema
    .createTable("login_attempts")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("scope", "text", (c) => c.notNull().check(sql`scope in ('email', 'ip')`))
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("login_attempts_key_idx")
    .on("login_attempts")
    .columns(["scope", "key", "at"])
    .execute();

  // password-reset tokens: only their SHA-256, single use
  await db.schema
    .createTable("password_resets")
    .addColumn("token_hash", "bytea", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("password_resets_user_idx")
    .on("password_resets")
    .columns(["user_id", "created_at"])
    .execute();

  await db.schema
    .createTable("soporte_tickets")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull().references("accounts.id"))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id"))
    .addColumn("asunto", "text", (c) => c.notNull())
    .addColumn("estado", "text", (c) =>
      c.notNull().check(sql`estado in ('abierto', 'respondido', 'cerrado')`),
    )
    .addColumn("request_id", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("soporte_tickets_account_idx")
    .on("soporte_tickets")
    .columns(["account_id", "updated_at"])
    .execute();
  await db.schema
    .createIndex("soporte_tickets_estado_idx")
    .on("soporte_tickets")
    .columns(["estado", "updated_at"])
    .execute();
  await db.schema
    .createTable("soporte_mensajes")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn("ticket_id", "uuid", (c) =>
      c.notNull().references("soporte_tickets.id").onDelete("cascade"),
    )
    .addColumn("autor", "text", (c) => c.notNull().check(sql`autor in ('cliente', 'operador')`))
    .addColumn("mensaje", "text", (c) => c.notNull())
    .addColumn("at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("soporte_mensajes_ticket_idx")
    .on("soporte_mensajes")
    .columns(["ticket_id", "id"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("soporte_mensajes").execute();
  await db.schema.dropTable("soporte_tickets").execute();
  await db.schema.dropTable("password_resets").execute();
  await db.schema.dropTable("login_attempts").execute();
  await db.schema.dropTable("users").execute();
}
