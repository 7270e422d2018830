import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("clientes")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    // another service's account: no foreign key across schemas
    .addColumn("account_id", "uuid", (c) => c.notNull())
    // keyset pagination order; timestamps tie and lose precision in JS
    .addColumn("seq", "bigint", (c) => c.generatedAlwaysAsIdentity().notNull().unique())
    .addColumn("doc_tipo", "integer", (c) => c.notNull())
    .addColumn("doc_nro", "text", (c) => c.notNull())
    .addColumn("razon_social", "text", (c) => c.notNull())
    .addColumn("condicion_iva_receptor_id", "integer")
    .addColumn("email", "text")
    .addColumn("domicilio", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("deleted_at", "timestamptz")
    .execute();
  // One live customer per document in an account (the 409) is enforced here, so concurrent
  // creates cannot both pass a check.
  await db.schema
    .createIndex("clientes_documento_vivo_key")
    .on("clientes")
    .columns(["account_id", "doc_tipo", "doc_nro"])
    .unique()
    .where(sql.ref("deleted_at"), "is", null)
    .execute();
  await db.schema
    .createIndex("clientes_account_seq_idx")
    .on("clientes")
    .columns(["account_id", "seq"])
    .where(sql.ref("deleted_at"), "is", null)
    .execute();

  await db.schema
    .createTable("productos")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("seq", "bigint", (c) => c.generatedAlwaysAsIdentity().notNull().unique())
    .addColumn("codigo", "text")
    .addColumn("descripcion", "text", (c) => c.notNull())
    // unconstrained numeric keeps the scale the caller sent ("1210.50" stays "1210.50")
    .addColumn("precio_unitario", "numeric", (c) => c.notNull().check(sql`precio_unitario >= 0`))
    .addColumn("alicuota_iva", "numeric", (c) =>
      c.check(sql`alicuota_iva in (0, 2.5, 5, 10.5, 21, 27)`),
    )
    .addColumn("unidad_medida", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("deleted_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("productos_account_seq_idx")
    .on("productos")
    .columns(["account_id", "seq"])
    .where(sql.ref("deleted_at"), "is", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("productos").execute();
  await db.schema.dropTable("clientes").execute();
}
