import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // `fallando_desde`: the first failed attempt since the last delivered one (null while the
  // endpoint answers). Once it is older than the failure window the endpoint is disabled,
  // `desactivado_*` saying when and why; `aviso_pendiente` holds the owner's e-mail until it is
  // queued, so a crash between both does not lose it.
  await db.schema
    .alterTable("endpoints")
    .addColumn("fallando_desde", "timestamptz")
    .addColumn("desactivado_at", "timestamptz")
    .addColumn("desactivado_motivo", "text")
    .addColumn("aviso_pendiente", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createIndex("endpoints_aviso_pendiente")
    .on("endpoints")
    .column("id")
    .where(sql.ref("aviso_pendiente"), "=", true)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("endpoints_aviso_pendiente").execute();
  await db.schema
    .alterTable("endpoints")
    .dropColumn("fallando_desde")
    .dropColumn("desactivado_at")
    .dropColumn("desactivado_motivo")
    .dropColumn("aviso_pendiente")
    .execute();
}
