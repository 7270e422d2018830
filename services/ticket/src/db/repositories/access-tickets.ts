import type { Environment, WebService } from "@pasarela/errors";
import { sql, type Kysely, type Selectable } from "kysely";
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
  Omit<
    Selectable<AccessTicketsTable>,
    "environment" | "fingerprint" | "service" | "login_owner" | "login_lease_until"
  >
>;

/** One login attempt's claim on a row: a fresh id per attempt, never reused. */
export interface LoginLease {
  readonly owner: string;
}

/**
 * The row of one (environment, fingerprint, service) and the login lease on it. Every call is
 * one short statement outside any transaction: a login holds no pooled connection while it
 * waits on WSAA, however many logins are in flight.
 */
export function makeAccessTicketsRepository(db: Kysely<TicketDatabase>) {
  const forKey = (key: AccessTicketKey) =>
    db
      .updateTable("access_tickets")
      .where("environment", "=", key.environment)
      .where("fingerprint", "=", key.fingerprint)
      .where("service", "=", key.service);

  /** Gives the lease back in the same statement that writes, when this attempt still holds it. */
  const releasing = (lease: LoginLease) => ({
    login_owner: sql<
      string | null
    >`case when access_tickets.login_owner = ${lease.owner} then null else access_tickets.login_owner end`,
    login_lease_until: sql<Date | null>`case when access_tickets.login_owner = ${lease.owner} then null else access_tickets.login_lease_until end`,
  });

  const upsert = async (key: AccessTicketKey, lease: LoginLease, values: Writable) => {
    const row = { ...values, updated_at: new Date() };
    await db
      .insertInto("access_tickets")
      .values({
        environment: key.environment,
        fingerprint: key.fingerprint,
        service: key.service,
        ...row,
      })
      .onConflict((oc) =>
        oc
          .columns(["environment", "fingerprint", "service"])
          .doUpdateSet({ ...row, ...releasing(lease) }),
      )
      .execute();
  };

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
          "t.login_owner",
          "t.login_lease_until",
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
              login_owner: row.login_owner,
              login_lease_until: row.login_lease_until,
            };
      return { cuit: row.cuit, environment: row.environment, certificate, ticket };
    },

    find(key: AccessTicketKey): Promise<AccessTicketRow | undefined> {
      return db
        .selectFrom("access_tickets")
        .selectAll()
        .where("environment", "=", key.environment)
        .where("fingerprint", "=", key.fingerprint)
        .where("service", "=", key.service)
        .executeTakeFirst();
    },

    /**
     * Takes the login lease of the row (creating the row if needed) unless another attempt
     * holds one that has not run out by the database's clock. Answers the row as it stands
     * once taken, or undefined when someone else holds it. Every registration of a
     * certificate contends for the same row, so one login serves them all.
     */
    async takeLease(
      key: AccessTicketKey,
      lease: LoginLease,
      leaseMs: number,
    ): Promise<AccessTicketRow | undefined> {
      const until = sql<Date>`now() + ${leaseMs} * interval '1 millisecond'`;
      return db
        .insertInto("access_tickets")
        .values({
          environment: key.environment,
          fingerprint: key.fingerprint,
          service: key.service,
          login_owner: lease.owner,
          login_lease_until: until,
        })
        .onConflict((oc) =>
          oc
            .columns(["environment", "fingerprint", "service"])
            .doUpdateSet({ login_owner: lease.owner, login_lease_until: until })
            .where((eb) =>
              eb.or([
                eb("access_tickets.login_lease_until", "is", null),
                eb("access_tickets.login_lease_until", "<=", sql<Date>`now()`),
              ]),
            ),
        )
        .returningAll()
        .executeTakeFirst();
    },

    /** Gives the lease back; a no-op once a write gave it back or another attempt took it. */
    async releaseLease(key: AccessTicketKey, lease: LoginLease): Promise<void> {
      await forKey(key)
        .set({ login_owner: null, login_lease_until: null })
        .where("login_owner", "=", lease.owner)
        .execute();
    },

    /**
     * A new TA replaces the old one, sealed for this key, and lifts any throttle but
     * `retryAt`. Written even when the lease ran out meanwhile: the authority will not issue
     * another while this one lives, so losing it would cost up to 12 h.
     */
    saveTicket: (
      key: AccessTicketKey,
      lease: LoginLease,
      ticket: StoredTicket,
      retryAt: Date | null = null,
    ) =>
      upsert(key, lease, {
        token_sealed: ticket.tokenSealed,
        sign_sealed: ticket.signSealed,
        generated_at: ticket.generatedAt,
        expires_at: ticket.expiresAt,
        retry_at: retryAt,
        pending_until: null,
      }),

    /**
     * The authority refused a login: keep whatever TA is stored, wait before the next one.
     * Only while this attempt holds the lease: a later holder knows better.
     */
    async saveRefusal(
      key: AccessTicketKey,
      lease: LoginLease,
      refusal: { retryAt: Date; pendingUntil: Date | null },
    ): Promise<void> {
      await forKey(key)
        .set({
          retry_at: refusal.retryAt,
          pending_until: refusal.pendingUntil,
          updated_at: new Date(),
          login_owner: null,
          login_lease_until: null,
        })
        .where("login_owner", "=", lease.owner)
        .execute();
    },
  };
}

export type AccessTicketsRepository = ReturnType<typeof makeAccessTicketsRepository>;
