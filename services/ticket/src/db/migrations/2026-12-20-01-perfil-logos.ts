import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
//
// Every logo a representada had, by the SHA-256 of its bytes: a voucher names the logo it was
// issued with, and prints it after the profile's logo changed. The profile names its current
// logo the same way. Logos already stored are copied in.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("representada_logos")
    .addColumn("representada_id", "uuid", (c) =>
      c.notNull().references("representadas.id").onDelete("cascade"),
    )
    .addColumn("sha256", "text", (c) => c.notNull())
    .addColumn("media_type", "text", (c) => c.notNull())
    .addColumn("data", "bytea", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("representada_logos_pkey", ["representada_id", "sha256"])
    .execute();
  await db.schema.alterTable("representada_perfiles").addColumn("logo_sha256", "text").execute();
  await sql`
    update representada_perfiles set logo_sha256 = encode(sha256(logo), 'hex')
    where logo is not null
  `.execute(db);
  await sql`
    insert into representada_logos (representada_id, sha256, media_type, data)
    select representada_id, logo_sha256, logo_media_type, logo
    from representada_perfiles where logo is not null
  `.execute(db);
  await sql`
    alter table representada_perfiles add constraint representada_perfiles_logo_sha256
    check ((logo is null) = (logo_sha256 is null))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("representada_perfiles")
    .dropConstraint("representada_perfiles_logo_sha256")
    .execute();
  await db.schema.alterTable("representada_perfiles").dropColumn("logo_sha256").execute();
  await db.schema.dropTable("representada_logos").execute();
}
