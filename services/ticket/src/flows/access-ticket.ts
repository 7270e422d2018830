import { randomUUID } from "node:crypto";
import type { HandlerContext } from "@pasarela/bus";
import { makeSingleFlight } from "@pasarela/authority";
import {
  AUTHORITY_STEP_MARGIN_MS,
  DEADLINE_SLACK_MS,
  ticket,
  type Environment,
  type ReplyInputOf,
  type WebService,
} from "@pasarela/contracts";
import {
  accessTicketPending,
  appError,
  authorityUnavailable,
  fail,
  ok,
  type AppError,
  type Result,
} from "@pasarela/errors";
import type { WsaaAdapter } from "../adapters/wsaa.js";
import type {
  AccessTicketKey,
  AccessTicketRow,
  AccessTicketsRepository,
  LoginLease,
  SigningCertificate,
} from "../db/repositories/access-tickets.js";
import { sealingContext } from "../domain/aliases.js";
import type { Sealer } from "../domain/sealing.js";
import {
  decide,
  TA_LIFETIME_MS,
  type StoredTicketState,
  type TicketPolicy,
} from "../domain/ticket-policy.js";
import { isCertificateUsable } from "../handlers/usable.js";

type Reply = ReplyInputOf<typeof ticket.accessGet>;
/** What one login yields, shared by every registration of the certificate; `cuit` is the caller's. */
type Ticket = Omit<Reply, "cuit" | "certificateNotAfter">;

export interface AccessPolicy extends TicketPolicy {
  /** pause before the next login after the authority refused one */
  readonly retryAfterMs: number;
}

/** How logins are serialised across instances. */
export interface LoginLeasePolicy {
  /** longer than a whole login (signing, WSAA's timeout, the write): then a dead holder's runs out */
  readonly leaseMs: number;
  /** how often an instance waiting on another's login looks at the row again */
  readonly pollMs: number;
}

function stateOf(row: AccessTicketRow | undefined): StoredTicketState {
  const hasTicket = row?.token_sealed != null && row.sign_sealed != null;
  return {
    expiresAt: hasTicket ? (row.expires_at ?? undefined) : undefined,
    retryAt: row?.retry_at ?? undefined,
    pendingUntil: row?.pending_until ?? undefined,
  };
}

/** The authority refused the stored TA and no other login is due yet (a 502: retry later). */
function refusedTicketKept(key: AccessTicketKey, retryAt: Date): AppError {
  return authorityUnavailable(
    `${key.service.toUpperCase()} rechazó el ticket de acceso vigente y no se pedirá otro a WSAA antes de ${retryAt.toISOString()}`,
    { service: key.service, environment: key.environment, retryAt: retryAt.toISOString() },
  );
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `work`'s outcome if it settles within `ms`, otherwise undefined; `work` goes on either way
 * (a login in progress is never abandoned: its TA is stored for the next request).
 */
function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), Math.max(ms, 0));
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** What is asked: the TA of `service` for a representada of the account. */
export interface AccessTicketRequest {
  readonly accountId: string;
  readonly cuit: string;
  readonly environment: Environment;
  readonly service: WebService;
  /** digest of a TA the authority refused: replace it rather than answer it again */
  readonly rejectedToken?: string | undefined;
}

/** What the caller brings besides the request: its deadline and its logger. */
export interface AccessTicketContext {
  readonly deadline?: number | undefined;
  readonly logger: HandlerContext["logger"];
}

export interface AccessTicketFlow {
  accessTicket: (
    request: AccessTicketRequest,
    context: AccessTicketContext,
  ) => Promise<Result<Reply>>;
}

/**
 * The access ticket of a representada. Steady state: one indexed read and two decryptions.
 * Otherwise one login per (environment, certificate fingerprint, service) however many ask,
 * whichever representadas and accounts registered that certificate: concurrent requests in
 * this process share one attempt (single flight), and instances take a lease on the TA's row
 * with one short statement; the holder calls WSAA outside any transaction and stores the TA
 * (giving the lease back in the same write), while the others read the row again every
 * `pollMs` until the TA is there or the lease has run out.
 */
export function makeAccessTicketFlow(deps: {
  tickets: AccessTicketsRepository;
  sealer: Sealer;
  wsaa: WsaaAdapter;
  policy: AccessPolicy;
  lease: LoginLeasePolicy;
  /** now in `environment`: the authority's clock, whose times a TA carries */
  now: (environment: Environment) => Date;
}): AccessTicketFlow {
  const flights = makeSingleFlight<Result<Ticket>>();

  /** Sealed for the row's own key: a ciphertext moved to another row does not open. */
  function open(row: AccessTicketRow): Ticket {
    return {
      token: deps.sealer.open(row.token_sealed!, sealingContext.token(row)),
      sign: deps.sealer.open(row.sign_sealed!, sealingContext.sign(row)),
      expiresAt: row.expires_at!.toISOString(),
    };
  }

  /**
   * One loginCms under the lease. `replacing`: the stored TA was refused by the authority, so it
   * is never served as a fallback, and whatever happens no other login is tried for it before
   * `retryAfterMs` (a TA that is refused again must not turn every query into a login).
   */
  async function login(
    key: AccessTicketKey,
    lease: LoginLease,
    row: AccessTicketRow | undefined,
    mode: { fallback: boolean; replacing: boolean },
    certificate: SigningCertificate,
    logger: HandlerContext["logger"],
  ): Promise<Result<Ticket>> {
    const { fallback, replacing } = mode;
    const { environment, service } = key;
    const keyPem = deps.sealer.open(
      certificate.private_key_sealed,
      sealingContext.privateKey(certificate.id),
    );
    const result = await deps.wsaa.login(
      { keyPem, certPem: certificate.certificate_pem! },
      service,
      environment,
    );
    const now = deps.now(environment);
    const retryAt = new Date(now.getTime() + deps.policy.retryAfterMs);
    const log = {
      certificateId: certificate.id,
      fingerprint: key.fingerprint,
      service,
      environment,
    };
    switch (result.kind) {
      case "ticket": {
        const { token, sign, generationTime, expirationTime } = result.ticket;
        // stored before anyone sees it: a TA the authority will not re-issue is never lost
        await deps.tickets.saveTicket(
          key,
          lease,
          {
            tokenSealed: deps.sealer.seal(token, sealingContext.token(key)),
            signSealed: deps.sealer.seal(sign, sealingContext.sign(key)),
            generatedAt: generationTime,
            expiresAt: expirationTime,
          },
          replacing ? retryAt : null,
        );
        logger.info(
          { ...log, expiresAt: expirationTime.toISOString(), replacing },
          "access ticket obtained",
        );
        return ok({ token, sign, expiresAt: expirationTime.toISOString() });
      }
      case "already-authenticated": {
        if (replacing) {
          // WSAA still counts the refused TA as valid: no other until it expires by its clock
          await deps.tickets.saveRefusal(key, lease, { retryAt, pendingUntil: null });
          logger.warn(log, "the refused ticket is still valid for WSAA; no replacement");
          return fail(refusedTicketKept(key, retryAt));
        }
        if (fallback && row) {
          await deps.tickets.saveRefusal(key, lease, { retryAt, pendingUntil: null });
          logger.info(log, "renewal refused while the stored ticket lives; serving it");
          return ok(open(row));
        }
        // the authority holds a TA we never stored: it can only expire, at the latest 12 h on
        const pendingUntil =
          row?.expires_at && row.expires_at > now
            ? row.expires_at
            : new Date(now.getTime() + TA_LIFETIME_MS);
        await deps.tickets.saveRefusal(key, lease, { retryAt, pendingUntil });
        logger.warn(
          { ...log, pendingUntil: pendingUntil.toISOString() },
          "authority holds a ticket we lack",
        );
        return fail(accessTicketPending(service, environment, pendingUntil.toISOString()));
      }
      case "error": {
        if (replacing) {
          await deps.tickets.saveRefusal(key, lease, { retryAt, pendingUntil: null });
        }
        if (fallback && row) {
          await deps.tickets.saveRefusal(key, lease, { retryAt, pendingUntil: null });
          logger.warn(
            { ...log, code: result.error.code },
            "renewal failed; serving the stored ticket",
          );
          return ok(open(row));
        }
        logger.warn(
          { ...log, code: result.error.code, detail: result.error.message },
          "login failed",
        );
        return fail(result.error);
      }
    }
  }

  /**
   * What the row as it stands asks for: an answer, or a login (under the lease). A `rejected`
   * token that is no longer the stored one was replaced already: the stored TA is the answer.
   */
  function plan(
    key: AccessTicketKey,
    row: AccessTicketRow | undefined,
    rejected: string | undefined,
  ): { answer: Result<Ticket> } | { login: { fallback: boolean; replacing: boolean } } {
    const now = deps.now(key.environment);
    if (rejected !== undefined && isStored(row, rejected)) {
      if (row.retry_at && row.retry_at > now) {
        return { answer: fail(refusedTicketKept(key, row.retry_at)) };
      }
      return { login: { fallback: false, replacing: true } };
    }
    const decision = decide(stateOf(row), now, deps.policy);
    switch (decision.action) {
      case "serve":
        return { answer: ok(open(row!)) };
      case "wait":
        return {
          answer: decision.fallback
            ? ok(open(row!))
            : fail(
                accessTicketPending(
                  key.service,
                  key.environment,
                  decision.availableAt.toISOString(),
                ),
              ),
        };
      case "login":
        return { login: { fallback: decision.fallback, replacing: false } };
    }
  }

  /**
   * Ends within one lease plus one login: either the holder stores a TA (or a refusal) and
   * the next read answers it, or its lease runs out and this attempt takes over.
   */
  async function obtain(
    key: AccessTicketKey,
    certificate: SigningCertificate,
    rejected: string | undefined,
    logger: HandlerContext["logger"],
  ): Promise<Result<Ticket>> {
    for (;;) {
      const seen = plan(key, await deps.tickets.find(key), rejected);
      if ("answer" in seen) return seen.answer;
      const lease: LoginLease = { owner: randomUUID() };
      const row = await deps.tickets.takeLease(key, lease, deps.lease.leaseMs);
      if (!row) {
        await sleep(deps.lease.pollMs);
        continue;
      }
      try {
        // another instance may have stored a TA between the read and the lease
        const leased = plan(key, row, rejected);
        if ("answer" in leased) return leased.answer;
        return await login(key, lease, row, leased.login, certificate, logger);
      } finally {
        await deps.tickets.releaseLease(key, lease);
      }
    }
  }

  /** True when the row holds a TA and it is the one whose token digests to `digest`. */
  function isStored(row: AccessTicketRow | undefined, digest: string): row is AccessTicketRow {
    return (
      row?.token_sealed != null &&
      row.sign_sealed != null &&
      ticket.accessTokenDigest(deps.sealer.open(row.token_sealed, sealingContext.token(row))) ===
        digest
    );
  }

  async function accessTicket(
    { accountId, cuit, environment, service, rejectedToken }: AccessTicketRequest,
    ctx: AccessTicketContext,
  ): Promise<Result<Reply>> {
    const found = await deps.tickets.lookup({ accountId, cuit, environment }, service);
    if (!found) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const { certificate } = found;
    const now = deps.now(environment);
    if (
      !certificate ||
      certificate.fingerprint === null ||
      certificate.not_after === null ||
      // the certificate as the account sees it (the panel, the expiry notices): this host's clock
      !isCertificateUsable(certificate, new Date())
    ) {
      return fail(appError("NO_ACTIVE_CERTIFICATE"));
    }
    // the authority's identity of the TA: the X.509 certificate, not our registration of it
    const key = { environment: found.environment, fingerprint: certificate.fingerprint, service };
    const certificateNotAfter = certificate.not_after.toISOString();
    const forCaller = (ticket: Ticket): Reply => ({
      ...ticket,
      cuit: found.cuit,
      certificateNotAfter,
    });
    const refused = rejectedToken !== undefined && isStored(found.ticket, rejectedToken);
    if (!refused && decide(stateOf(found.ticket), now, deps.policy).action === "serve") {
      return ok(forCaller(open(found.ticket!)));
    }
    // a report of a refused TA never joins a plain request's flight: that one may answer it
    const flightKey = `${key.environment}|${key.fingerprint}|${service}|${refused ? rejectedToken : ""}`;
    const { flight } = flights.join(flightKey, () =>
      obtain(key, certificate, refused ? rejectedToken : undefined, ctx.logger),
    );
    // the caller's deadline, or the longest any caller waits when it sent none
    const deadline =
      ctx.deadline ?? Date.now() + (ticket.accessGet.timeoutMs ?? 0) - DEADLINE_SLACK_MS;
    const budgetMs = deadline - AUTHORITY_STEP_MARGIN_MS - Date.now();
    const result = await within(flight, budgetMs);
    if (result === undefined) {
      ctx.logger.warn(
        { fingerprint: key.fingerprint, service, environment: key.environment, budgetMs },
        "no access ticket within the caller's deadline; the login goes on",
      );
      return fail(
        authorityUnavailable(
          `WSAA no entregó el ticket de acceso de ${service} dentro del plazo del pedido (${Math.max(budgetMs, 0)} ms)`,
          { service, environment: key.environment },
        ),
      );
    }
    return result.ok ? ok(forCaller(result.value)) : result;
  }

  return { accessTicket };
}
