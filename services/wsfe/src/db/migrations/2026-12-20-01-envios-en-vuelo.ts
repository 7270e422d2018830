import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<unknown>): Promise<void> {
  // Until when a FECAESolicitar carrying the voucher may still reach the authority: set (by the
  // database's clock) in the statement that precedes each send, from the lease, the authority
  // timeout and a margin. A series taken over from a writer that died or lost its lease reads
  // it: inside that time a voucher whose number is still free may yet be authorized, so it is
  // sent again rather than declared never issued. Null: no send of it can land any more (the
  // only one was answered, or the voucher was stored before this column existed, when the
  // writer lease alone outlasted every send).
  await db.schema.alterTable("comprobantes").addColumn("in_flight_until", "timestamptz").execute();
  // How many times reconciliation sent the voucher again (each send may land later, and pushes
  // in_flight_until on): bounded, so a series whose copies keep getting lost, or that the
  // authority keeps rejecting on their own merits, waits a bounded time before it moves on.
  await db.schema
    .alterTable("comprobantes")
    .addColumn("resends", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  // One live voucher per Idempotency-Key of an account: an attempt whose caller stopped waiting
  // (its wsfe instance fell silent) can never be issued beside the retry that followed it.
  await db.schema
    .createIndex("comprobantes_live_key_idx")
    .on("comprobantes")
    .columns(["account_id", "idempotency_key"])
    .unique()
    .where(sql.ref("state"), "in", ["pending", "authorized", "unknown"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("comprobantes_live_key_idx").execute();
  await db.schema.alterTable("comprobantes").dropColumn("resends").execute();
  await db.schema.alterTable("comprobantes").dropColumn("in_flight_until").execute();
}
