import type { Environment, WebService } from "@pasarela/errors";
import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import type { TicketKey } from "../../domain/aliases.js";
import type { AccessTicketsTable, TicketDatabase } from "../database.js";
import type { CertificateRow } from "./certificates.js";

export type AccessTicketRow = Selectable<AccessTicketsTable>;

export interface AccessTicketKey extends TicketKey {
  readonly environment: Environment;
  readonly service: WebService;
}

/** What a login needs of the active certificate, and what says whether it may sign. */
export type SigningCertificate = Pick<
  CertificateRow,
  | "id"
  | "status"
  | "private_key_sealed"
  | "certificate_pem"
  | "fingerprint"
  | "not_before"
  | "not_after"
>;

/** A caller's registration as `ticket.access.get` sees it. */
export interface AccessLookup {
  readonly cuit: string;
  readonly environment: Environment;
  /** the active certificate, if any */
  readonly certificate: SigningCertificate | undefined;
  /** the stored TA and throttle of that certificate for the service, if any */
  readonly ticket: AccessTicketRow | undefined;
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

/** The queries on one row, run inside `withLock`'s transaction. */
function ticketQueries(db: Transaction<TicketDatabase>) {
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

/** Reads outside the lock go through `lookup`; every write happens under `withLock`. */
export function makeAccessTicketsRepository(db: Kysely<TicketDatabase>) {
  return {
    /**
     * The representada of (account, cuit, environment), its active certificate and that
     * certificate's TA for `service`, in one read over three unique indexes: the steady state of
     * `ticket.access.get`. Undefined when the account has no such representada.
     */
    async lookup(
      caller: { accountId: string; cuit: string; environment: Environment },
      service: WebService,
    ): Promise<AccessLookup | undefined> {
      const row = await db
        .selectFrom("representadas as r")
        .leftJoin("certificates as c", (join) =>
          join.onRef("c.representada_id", "=", "r.id").on("c.status", "=", "active"),
        )
        .leftJoin("access_tickets as t", (join) =>
          join
            .onRef("t.environment", "=", "r.environment")
            .onRef("t.fingerprint", "=", "c.fingerprint")
            .on("t.service", "=", service),
        )
        .select([
          "r.cuit",
          "r.environment",
          "c.id as certificate_id",
          "c.status",
          "c.private_key_sealed",
          "c.certificate_pem",
          "c.fingerprint",
          "c.not_before",
          "c.not_after",
          "t.token_sealed",
          "t.sign_sealed",
          "t.generated_at",
          "t.expires_at",
          "t.retry_at",
          "t.pending_until",
          "t.updated_at",
        ])
        .where("r.account_id", "=", caller.accountId)
        .where("r.cuit", "=", caller.cuit)
        .where("r.environment", "=", caller.environment)
        .executeTakeFirst();
      if (!row) return undefined;
      const certificate =
        row.certificate_id === null
          ? undefined
          : {
              id: row.certificate_id,
              status: row.status!,
              private_key_sealed: row.private_key_sealed!,
              certificate_pem: row.certificate_pem,
              fingerprint: row.fingerprint,
              not_before: row.not_before,
              not_after: row.not_after,
            };
      const ticket =
        row.updated_at === null || row.fingerprint === null
          ? undefined
          : {
              environment: row.environment,
              fingerprint: row.fingerprint,
              service,
              token_sealed: row.token_sealed,
              sign_sealed: row.sign_sealed,
              generated_at: row.generated_at,
              expires_at: row.expires_at,
              retry_at: row.retry_at,
              pending_until: row.pending_until,
              updated_at: row.updated_at,
            };
      return { cuit: row.cuit, environment: row.environment, certificate, ticket };
    },
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
