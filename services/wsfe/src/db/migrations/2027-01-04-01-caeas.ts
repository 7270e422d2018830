import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The CAEA the authority granted a CUIT for each fortnight (Periodo yyyymm, Orden 1|2),
  // obtained ahead of time for contingency: the code sealed under KEY_ENCRYPTION_KEY (the row's
  // key as context, so a code moved to another row does not open), its dates as answered.
  await db.schema
    .createTable("caeas")
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("periodo", "integer", (c) => c.notNull())
    .addColumn("orden", "smallint", (c) => c.notNull().check(sql`orden in (1, 2)`))
    .addColumn("caea_sealed", "bytea", (c) => c.notNull())
    .addColumn("fch_vig_desde", "text", (c) => c.notNull())
    .addColumn("fch_vig_hasta", "text", (c) => c.notNull())
    .addColumn("fch_tope_inf", "text", (c) => c.notNull())
    .addColumn("fch_proceso", "text", (c) => c.notNull())
    .addColumn("obtained_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("caeas_pk", ["environment", "cuit", "periodo", "orden"])
    .execute();
  // The fortnights found without their CAEA, once per account and representada: the alert
  // (the event and the owner's e-mail) is sent until `avisado_at` is set.
  await db.schema
    .createTable("caea_faltantes")
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("environment", "text", (c) => c.notNull())
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("periodo", "integer", (c) => c.notNull())
    .addColumn("orden", "smallint", (c) => c.notNull())
    .addColumn("fch_vig_desde", "text", (c) => c.notNull())
    .addColumn("fch_vig_hasta", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("avisado_at", "timestamptz")
    .addPrimaryKeyConstraint("caea_faltantes_pk", [
      "account_id",
      "environment",
      "cuit",
      "periodo",
      "orden",
    ])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("caea_faltantes").execute();
  await db.schema.dropTable("caeas").execute();
}
