import { sql, type Kysely } from "kysely";

// Frozen: never edit a migration that has shipped; add a new one.
// A form sent before login (sign-up, login, password reset) shows its outcome after a redirect
// too: its flash belongs to the browser's pre-login form cookie, which is no session. Flashes
// keep their owner's hash and their ten minutes; the sweep drops them, not a cascade.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table flashes drop constraint if exists flashes_session_hash_fkey`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from flashes where session_hash not in (select id_hash from sessions)`.execute(
    db,
  );
  await sql`alter table flashes add constraint flashes_session_hash_fkey
    foreign key (session_hash) references sessions (id_hash) on delete cascade`.execute(db);
}
