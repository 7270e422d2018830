import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // A voucher issued in contingency is authorized by the fortnight's CAEA rather than by a CAE
  // of its own: it is stored `authorized` at once (the customer holds it from that moment; its
  // number, e-mail, PDF and events are a CAE voucher's), with `tipo_autorizacion` CAEA, the
  // CAEA in `cae` and its FchVigHasta in `cae_vencimiento`, and is then informed to the
  // authority (FECAEARegInformativo). `caea_estado` follows that informing:
  // - pendiente: not informed yet (the API calls it caea_pendiente);
  // - informado: the authority accepted it;
  // - rechazado: the authority refused it; the row's state then becomes `caea_rechazado`,
  //   which keeps its number (the customer holds that voucher) and counts as nothing else.
  await sql`alter table comprobantes drop constraint comprobantes_state_check`.execute(db);
  await sql`alter table comprobantes add constraint comprobantes_state_check check (state in
    ('pending', 'authorized', 'rejected', 'unknown', 'not_issued', 'conflict', 'caea_rechazado'))`.execute(
    db,
  );
  await db.schema
    .alterTable("comprobantes")
    .addColumn("tipo_autorizacion", "text", (c) =>
      c
        .notNull()
        .defaultTo("CAE")
        .check(sql`tipo_autorizacion in ('CAE', 'CAEA')`),
    )
    .addColumn("caea_estado", "text", (c) =>
      c.check(sql`caea_estado in ('pendiente', 'informado', 'rechazado')`),
    )
    // the fortnight of the CAEA it was issued under (joins caeas for FchTopeInf)
    .addColumn("caea_periodo", "integer")
    .addColumn("caea_orden", "smallint")
    // CbteFchHsGen as informed: when the voucher was generated, yyyymmddhhmmss (Argentina)
    .addColumn("cbte_fch_hs_gen", "text")
    .addColumn("caea_informado_at", "timestamptz")
    // informing attempts, and why the last one did not settle it (catalogue error)
    .addColumn("caea_intentos", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("caea_failure", "jsonb")
    .execute();
  await sql`alter table comprobantes add constraint comprobantes_caea_consistente check (
    (tipo_autorizacion = 'CAEA') = (caea_estado is not null and caea_periodo is not null
      and caea_orden is not null and cbte_fch_hs_gen is not null))`.execute(db);
  // a CAEA voucher's number stays held once rejected at informing: it was handed out
  await db.schema.dropIndex("comprobantes_live_number_idx").execute();
  await db.schema
    .createIndex("comprobantes_live_number_idx")
    .on("comprobantes")
    .columns(["environment", "cuit", "pto_vta", "cbte_tipo", "cbte_nro"])
    .unique()
    .where(sql.ref("state"), "in", ["pending", "authorized", "unknown", "caea_rechazado"])
    .execute();
  // what the informing job looks for, in numbering order per series
  await db.schema
    .createIndex("comprobantes_caea_pendiente_idx")
    .on("comprobantes")
    .columns(["environment", "cuit", "pto_vta", "cbte_tipo", "cbte_nro"])
    .where(sql.ref("caea_estado"), "=", "pendiente")
    .execute();

  // the vouchers one issuance call stored: what it settles before issuing in contingency
  await db.schema
    .createIndex("comprobantes_request_idx")
    .on("comprobantes")
    .columns(["account_id", "request_id"])
    .execute();

  // The CAEA points of sale declared without movement for a fortnight
  // (FECAEASinMovimientoInformar), once each; `resultado` as the authority answered.
  await db.schema
    .createTable("caea_sin_movimiento")
    .addColumn("environment", "text", (c) =>
      c.notNull().check(sql`environment in ('homologacion', 'produccion')`),
    )
    .addColumn("cuit", "text", (c) => c.notNull())
    .addColumn("periodo", "integer", (c) => c.notNull())
    .addColumn("orden", "smallint", (c) => c.notNull())
    .addColumn("pto_vta", "integer", (c) => c.notNull())
    .addColumn("resultado", "text", (c) => c.notNull())
    .addColumn("fch_proceso", "text")
    .addColumn("errores", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("informed_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("caea_sin_movimiento_pk", [
      "environment",
      "cuit",
      "periodo",
      "orden",
      "pto_vta",
    ])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("caea_sin_movimiento").execute();
  await db.schema.dropIndex("comprobantes_request_idx").execute();
  await db.schema.dropIndex("comprobantes_caea_pendiente_idx").execute();
  await db.schema.dropIndex("comprobantes_live_number_idx").execute();
  await db
    .deleteFrom("comprobantes" as never)
    .where(sql.ref("state"), "=", "caea_rechazado")
    .execute();
  await db.schema
    .createIndex("comprobantes_live_number_idx")
    .on("comprobantes")
    .columns(["environment", "cuit", "pto_vta", "cbte_tipo", "cbte_nro"])
    .unique()
    .where(sql.ref("state"), "in", ["pending", "authorized", "unknown"])
    .execute();
  await sql`alter table comprobantes drop constraint comprobantes_caea_consistente`.execute(db);
  await db.schema
    .alterTable("comprobantes")
    .dropColumn("tipo_autorizacion")
    .dropColumn("caea_estado")
    .dropColumn("caea_periodo")
    .dropColumn("caea_orden")
    .dropColumn("cbte_fch_hs_gen")
    .dropColumn("caea_informado_at")
    .dropColumn("caea_intentos")
    .dropColumn("caea_failure")
    .execute();
  await sql`alter table comprobantes drop constraint comprobantes_state_check`.execute(db);
  await sql`alter table comprobantes add constraint comprobantes_state_check check (state in
    ('pending', 'authorized', 'rejected', 'unknown', 'not_issued', 'conflict'))`.execute(db);
}
