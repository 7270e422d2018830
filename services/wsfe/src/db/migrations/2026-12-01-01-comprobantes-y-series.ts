import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per numbering unit of the authority: the header of one
  // FECAESolicitar. Not per account: two accounts holding the same CUIT share its numbering.
  // The writer lease makes one wsfe instance at a time the series' only issuer; it is taken and
  // renewed with one short statement each, never held as a transaction across an authority call.
  await db.schema
    .createTable("series")
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("pto_vta", "integer", (c) => c.notNull())
    .addColumn("cbte_tipo", "integer", (c) => c.notNull())
    .addColumn("writer_owner", "text")
    .addColumn("writer_lease_until", "timestamptz")
    // set when a voucher of the series ended without a usable answer; cleared once reconciled
    .addColumn("needs_reconciliation", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("series_pk", ["environment", "cuit", "pto_vta", "cbte_tipo"])
    .execute();

  // Every voucher wsfe sent (or was about to send) to FECAESolicitar. The state is checked text
  // so that later migrations can add outcomes:
  // - pending: stored with its number, the authority not answered yet;
  // - authorized: the authority granted a CAE;
  // - rejected: the authority answered Resultado R;
  // - unknown: sent, no usable answer (timeout, 5xx, dropped connection, unreadable);
  // - not_issued: proved never authorized (refused before judging, or reconciled as unused);
  // - conflict: the number was authorized at the authority for a different voucher.
  await db.schema
    .createTable("comprobantes")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("account_id", "uuid", (c) => c.notNull())
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("pto_vta", "integer", (c) => c.notNull())
    .addColumn("cbte_tipo", "integer", (c) => c.notNull())
    .addColumn("cbte_nro", "bigint", (c) => c.notNull())
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .check(
          sql`state in ('pending', 'authorized', 'rejected', 'unknown', 'not_issued', 'conflict')`,
        ),
    )
    .addColumn("concepto", "integer", (c) => c.notNull())
    .addColumn("cbte_fch", "text", (c) => c.notNull().check(sql`cbte_fch ~ '^[0-9]{8}$'`))
    .addColumn("doc_tipo", "integer", (c) => c.notNull())
    .addColumn("doc_nro", "bigint", (c) => c.notNull())
    .addColumn("moneda_id", "text", (c) => c.notNull())
    .addColumn("moneda_cotizacion", "numeric", (c) => c.notNull())
    .addColumn("imp_total", "numeric(17, 2)", (c) => c.notNull())
    .addColumn("imp_neto", "numeric(17, 2)", (c) => c.notNull())
    .addColumn("imp_iva", "numeric(17, 2)", (c) => c.notNull())
    .addColumn("imp_trib", "numeric(17, 2)", (c) => c.notNull())
    .addColumn("imp_tot_conc", "numeric(17, 2)", (c) => c.notNull())
    .addColumn("imp_op_ex", "numeric(17, 2)", (c) => c.notNull())
    // the request as resolved (receiver, items, tributos, opcionales after catalog and defaults)
    .addColumn("request", "jsonb", (c) => c.notNull())
    // exactly the FECAEDetRequest sent: numbers, dates and decimal-string amounts
    .addColumn("sent", "jsonb", (c) => c.notNull())
    .addColumn("resultado", "text")
    .addColumn("cae", "text")
    .addColumn("cae_vencimiento", "text")
    .addColumn("observaciones", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("errores", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("eventos", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // why the voucher is unknown, not issued or in conflict (catalogue error, authority data)
    .addColumn("failure", "jsonb")
    .addColumn("email_to", "text")
    .addColumn("idempotency_key", "text")
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("answered_at", "timestamptz")
    // the final state's event reached JetStream; null means it is still to be published
    .addColumn("event_published_at", "timestamptz")
    .addCheckConstraint(
      "comprobantes_authorized_has_cae",
      sql`state <> 'authorized' or (cae is not null and cae <> '')`,
    )
    .execute();
  // Two live vouchers can never hold one number of a series; rejected, not issued and conflict
  // rows give the number back.
  await db.schema
    .createIndex("comprobantes_live_number_idx")
    .on("comprobantes")
    .columns(["environment", "cuit", "pto_vta", "cbte_tipo", "cbte_nro"])
    .unique()
    .where(sql.ref("state"), "in", ["pending", "authorized", "unknown"])
    .execute();
  // what reconciliation looks for before a series issues again
  await db.schema
    .createIndex("comprobantes_unresolved_idx")
    .on("comprobantes")
    .columns(["environment", "cuit", "pto_vta", "cbte_tipo", "cbte_nro"])
    .where(sql.ref("state"), "in", ["pending", "unknown"])
    .execute();
  await db.schema
    .createIndex("comprobantes_idempotency_idx")
    .on("comprobantes")
    .columns(["account_id", "idempotency_key"])
    .where(sql.ref("idempotency_key"), "is not", null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("comprobantes").execute();
  await db.schema.dropTable("series").execute();
}
