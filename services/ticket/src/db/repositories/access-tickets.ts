import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import type { AccessTicketsTable, TicketDatabase } from "../database.js";

export type AccessTicketRow = Selectable<AccessTicketsTable>;

export interface StoredTicket {
  tokenSealed: Buffer;
  signSealed: Buffer;
  generatedAt: Date;
  expiresAt: Date;
}

function ticketQueries(db: Kysely<TicketDatabase> | Transaction<TicketDatabase>) {
  const upsert = async (
    certificateId: string,
    service: string,
    values: Partial<Omit<AccessTicketRow, "certificate_id" | "service">>,
  ) => {
    const row = { ...values, updated_at: new Date() };
    await db
      .insertInto("access_tickets")
      .values({ certificate_id: certificateId, service, ...row })
      .onConflict((oc) => oc.columns(["certificate_id", "service"]).doUpdateSet(row))
      .execute();
  };
  return {
    find(certificateId: string, service: string): Promise<AccessTicketRow | undefined> {
      return db
        .selectFrom("access_tickets")
        .selectAll()
        .where("certificate_id", "=", certificateId)
        .where("service", "=", service)
        .executeTakeFirst();
    },
    /** A new TA replaces the old one and lifts any throttle. */
    saveTicket: (certificateId: string, service: string, ticket: StoredTicket) =>
      upsert(certificateId, service, {
        token_sealed: ticket.tokenSealed,
        sign_sealed: ticket.signSealed,
        generated_at: ticket.generatedAt,
        expires_at: ticket.expiresAt,
        retry_at: null,
        pending_until: null,
      }),
    /** The authority refused a login: keep whatever TA is stored, wait before the next one. */
    saveRefusal: (
      certificateId: string,
      service: string,
      refusal: { retryAt: Date; pendingUntil: Date | null },
    ) =>
      upsert(certificateId, service, {
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
     * Runs `work` holding the cross-instance lock of (certificate, service): a transaction
     * advisory lock, released at commit, so a crashed holder never leaves it taken. Whoever
     * waited re-reads the row inside and finds the TA the holder stored.
     */
    withLock<T>(
      certificateId: string,
      service: string,
      work: (queries: TicketQueries) => Promise<T>,
    ): Promise<T> {
      return db.transaction().execute(async (trx) => {
        const key = `ticket.access:${certificateId}:${service}`;
        await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
        return work(ticketQueries(trx));
      });
    },
  };
}

export type AccessTicketsRepository = ReturnType<typeof makeAccessTicketsRepository>;
