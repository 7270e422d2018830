import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
/**
 * A committed unit can be given back: a voucher issued in contingency under a CAEA and then
 * refused by the authority at informing (`evt.wsfe.comprobante.caea_rechazado`) counts toward
 * nothing. Its hold becomes `voided` rather than being deleted, so an authorization delivered
 * after the refusal (a consumer that lagged) cannot commit it again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table quota_holds drop constraint quota_holds_state_check`.execute(db);
  await sql`alter table quota_holds add constraint quota_holds_state_check
    check (state in ('reserved', 'committed', 'voided'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from quota_holds where state = 'voided'`.execute(db);
  await sql`alter table quota_holds drop constraint quota_holds_state_check`.execute(db);
  await sql`alter table quota_holds add constraint quota_holds_state_check
    check (state in ('reserved', 'committed'))`.execute(db);
}
