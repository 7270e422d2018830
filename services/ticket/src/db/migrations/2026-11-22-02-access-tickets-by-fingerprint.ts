import { sql, type Kysely } from "kysely";

/**
 * The authority keeps one TA per X.509 certificate and service (authority-ws.md §2.1, §8.1),
 * but the same certificate may be registered for several representadas, in several accounts.
 * Access tickets were keyed by our certificate row; they are re-keyed here by
 * (environment, fingerprint, service) so every registration of one certificate shares one TA.
 *
 * Rows are migrated, not dropped: a stored TA is one the authority will not re-issue for up to
 * 12 h. The migration holds no key, so it cannot re-seal token and sign; each migrated row
 * remembers in `sealed_for_certificate_id` the certificate row whose sealing context it was
 * written under, and the next login replaces it with values sealed for the new key.
 *
 * Frozen: never edit a migration that has shipped; add a new one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The fingerprint is written with the certificate at activation (SHA-256 of the DER, lower-case
  // hex without colons, as certificate.ts computes it). Any certificate with a PEM and no
  // fingerprint gets one computed the same way; the stored PEM is a single certificate block.
  await sql`
    update certificates
       set fingerprint = encode(
             sha256(decode(regexp_replace(certificate_pem, '-----[^-]+-----|[[:space:]]', '', 'g'), 'base64')),
             'hex')
     where fingerprint is null and certificate_pem is not null`.execute(db);

  await sql`
    alter table access_tickets
      add column environment text,
      add column fingerprint text,
      add column sealed_for_certificate_id uuid`.execute(db);
  await sql`
    update access_tickets t
       set environment = r.environment,
           fingerprint = c.fingerprint,
           sealed_for_certificate_id = t.certificate_id
      from certificates c
      join representadas r on r.id = c.representada_id
     where c.id = t.certificate_id`.execute(db);
  // A row is only ever written after a login with a certificate PEM, which has a fingerprint
  // by now; a row without one could hold no TA.
  await sql`delete from access_tickets where fingerprint is null`.execute(db);

  // Registrations of one certificate collapse into one row: the one holding the TA that lives
  // longest survives; the login throttle keeps the latest instants any of them knew, since they
  // all describe the same (certificate, service) at the authority.
  const ranked = sql`
    select certificate_id, service,
           row_number() over (
             partition by environment, fingerprint, service
             order by (token_sealed is not null and sign_sealed is not null and expires_at is not null) desc,
                      expires_at desc nulls last, updated_at desc, certificate_id
           ) as rank,
           max(retry_at) over (partition by environment, fingerprint, service) as retry_at,
           max(pending_until) over (partition by environment, fingerprint, service) as pending_until
      from access_tickets`;
  await sql`
    with ranked as (${ranked})
    update access_tickets t
       set retry_at = ranked.retry_at, pending_until = ranked.pending_until
      from ranked
     where ranked.rank = 1 and t.certificate_id = ranked.certificate_id and t.service = ranked.service`.execute(
    db,
  );
  await sql`
    with ranked as (${ranked})
    delete from access_tickets t
     using ranked
     where ranked.rank > 1 and t.certificate_id = ranked.certificate_id and t.service = ranked.service`.execute(
    db,
  );

  await sql`alter table access_tickets drop constraint access_tickets_pkey`.execute(db);
  // drops the foreign key with it: a shared TA belongs to no single registration
  await sql`alter table access_tickets drop column certificate_id`.execute(db);
  await sql`
    alter table access_tickets
      alter column environment set not null,
      alter column fingerprint set not null,
      add constraint access_tickets_environment_check
        check (environment in ('homologacion', 'produccion')),
      add constraint access_tickets_pkey primary key (environment, fingerprint, service)`.execute(
    db,
  );
}

/**
 * Back to one row per certificate row. A TA sealed for the shared key cannot be opened by the
 * previous code, so each registration gets the throttle instead (no login before the TA's
 * expiry: the authority would refuse it anyway); a row still sealed for its certificate row
 * keeps its TA.
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table access_tickets rename to access_tickets_shared`.execute(db);
  await sql`alter table access_tickets_shared drop constraint access_tickets_pkey`.execute(db);
  await sql`
    create table access_tickets (
      certificate_id uuid not null references certificates (id) on delete cascade,
      service text not null,
      token_sealed bytea,
      sign_sealed bytea,
      generated_at timestamptz,
      expires_at timestamptz,
      retry_at timestamptz,
      pending_until timestamptz,
      updated_at timestamptz not null default now(),
      constraint access_tickets_pkey primary key (certificate_id, service)
    )`.execute(db);
  await sql`
    insert into access_tickets
      (certificate_id, service, token_sealed, sign_sealed, generated_at, expires_at,
       retry_at, pending_until, updated_at)
    select c.id, s.service,
           case when s.sealed_for_certificate_id = c.id then s.token_sealed end,
           case when s.sealed_for_certificate_id = c.id then s.sign_sealed end,
           s.generated_at, s.expires_at,
           case when s.sealed_for_certificate_id = c.id then s.retry_at
                else greatest(s.retry_at, s.expires_at) end,
           case when s.sealed_for_certificate_id = c.id then s.pending_until
                else greatest(s.pending_until, s.expires_at) end,
           s.updated_at
      from access_tickets_shared s
      join certificates c on c.fingerprint = s.fingerprint
      join representadas r on r.id = c.representada_id and r.environment = s.environment`.execute(
    db,
  );
  await sql`drop table access_tickets_shared`.execute(db);
}
