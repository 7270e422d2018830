import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
//
// A representada's contingency: off unless turned on, with the points of sale the authority
// lists with EmisionTipo CAEA, where vouchers are issued under the fortnight's CAEA while the
// authority cannot take them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("representadas")
    .addColumn("contingencia_caea", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("contingencia_ptos_venta", sql`integer[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
  await sql`create index representadas_contingencia_idx on representadas (environment)
    where contingencia_caea`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("representadas")
    .dropColumn("contingencia_caea")
    .dropColumn("contingencia_ptos_venta")
    .execute();
}
