import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import type { TicketKey } from "../../domain/aliases.js";
import type { AccessTicketsTable, EnvironmentColumn, TicketDatabase } from "../database.js";

export type AccessTicketRow = Selectable<AccessTicketsTable>;

export interface AccessTicketKey extends TicketKey {
  readonly environment: EnvironmentColumn;
}

export interface StoredTicket {
  tokenSealed: Buffer;
  signSealed: Buffer;
  generatedAt: Date;
  expiresAt: Date;
}

type Writable = Partial<
  Omit<Selectable<AccessTicketsTable>, "environment" | "fingerprint" | "service">
>;

function ticketQueries(db: Kysely<TicketDatabase> | Transaction<TicketDatabase>) {
  const upsert = async (key: AccessTicketKey, values: Writable) => {
    const row = { ...values, updated_at: new Date() };
    await db
      .insertInto("access_tickets")
      .values({
        environment: key.environment,
        fingerprint: key.fingerprint,
        service: key.service,
        ...row,
      })
      .onConflict((oc) => oc.columns(["environment", "fingerprint", "service"]).doUpdateSet(row))
      .execute();
  };
  return {
    find(key: AccessTicketKey): Promise<AccessTicketRow | undefined> {
      return db
        .selectFrom("access_tickets")
        .selectAll()
        .where("environment", "=", key.environment)
        .where("fingerprint", "=", key.fingerprint)
        .where("service", "=", key.service)
        .executeTakeFirst();
    },
    /** A new TA replaces the old one, sealed for this key, and lifts any throttle. */
    saveTicket: (key: AccessTicketKey, ticket: StoredTicket) =>
      upsert(key, {
        token_sealed: ticket.tokenSealed,
        sign_sealed: ticket.signSealed,
        generated_at: ticket.generatedAt,
        expires_at: ticket.expiresAt,
        retry_at: null,
        pending_until: null,
      }),
    /** The authority refused a login: keep whatever TA is stored, wait before the next one. */
    saveRefusal: (key: AccessTicketKey, refusal: { retryAt: Date; pendingUntil: Date | null }) =>
      upsert(key, {
        retry_at: refusal.retryAt,
        pending_until: refusal.pendingUntil,
      }),
  };
}

export type TicketQueries = ReturnType<typeof ticketQueries>;

export function makeAccessTicketsRepository(db: Kysely<TicketDatabase>) {
  return {
    ...ticketQueries(db),
    /**
     * Runs `work` holding the cross-instance lock of (environment, fingerprint, service): a
     * transaction advisory lock, released at commit, so a crashed holder never leaves it taken.
     * Every registration of one certificate takes the same lock; whoever waited re-reads the row
     * inside and finds the TA the holder stored.
     */
    withLock<T>(key: AccessTicketKey, work: (queries: TicketQueries) => Promise<T>): Promise<T> {
      return db.transaction().execute(async (trx) => {
        const lock = `ticket.access:${key.environment}:${key.fingerprint}:${key.service}`;
        await sql`select pg_advisory_xact_lock(hashtextextended(${lock}, 0))`.execute(trx);
        return work(ticketQueries(trx));
      });
    },
  };
}

export type AccessTicketsRepository = ReturnType<typeof makeAccessTicketsRepository>;
