import type { Handler, HandlerContext } from "@pasarela/bus";
import type { ReplyInputOf, ticket } from "@pasarela/contracts";
import { accessTicketPending, appError, fail, ok, type Result } from "@pasarela/errors";
import type { WsaaAdapter } from "../adapters/wsaa.js";
import type {
  AccessTicketKey,
  AccessTicketRow,
  AccessTicketsRepository,
  SigningCertificate,
  TicketQueries,
} from "../db/repositories/access-tickets.js";
import { sealingContext } from "../domain/aliases.js";
import type { Sealer } from "../domain/sealing.js";
import {
  decide,
  TA_LIFETIME_MS,
  type StoredTicketState,
  type TicketPolicy,
} from "../domain/ticket-policy.js";
import { isCertificateUsable } from "./usable.js";

type Reply = ReplyInputOf<typeof ticket.accessGet>;
/** What one login yields, shared by every registration of the certificate; `cuit` is the caller's. */
type Ticket = Omit<Reply, "cuit">;

export interface AccessPolicy extends TicketPolicy {
  /** pause before the next login after the authority refused one */
  readonly retryAfterMs: number;
}

function stateOf(row: AccessTicketRow | undefined): StoredTicketState {
  const hasTicket = row?.token_sealed != null && row.sign_sealed != null;
  return {
    expiresAt: hasTicket ? (row.expires_at ?? undefined) : undefined,
    retryAt: row?.retry_at ?? undefined,
    pendingUntil: row?.pending_until ?? undefined,
  };
}

/**
 * `ticket.access.get`. Steady state: one indexed read and two decryptions. Otherwise one
 * login per (environment, certificate fingerprint, service) however many ask, whichever
 * representadas and accounts registered that certificate: concurrent requests in this process
 * share one attempt (single flight), and instances serialise on a Postgres advisory lock
 * under which the TA is re-read and, if still missing, obtained and stored before replying.
 */
export function makeAccessGet(deps: {
  tickets: AccessTicketsRepository;
  sealer: Sealer;
  wsaa: WsaaAdapter;
  policy: AccessPolicy;
  now: () => Date;
}): Handler<typeof ticket.accessGet> {
  const inFlight = new Map<string, Promise<Result<Ticket>>>();

  /** Sealed for the row's own key: a ciphertext moved to another row does not open. */
  function open(row: AccessTicketRow): Ticket {
    return {
      token: deps.sealer.open(row.token_sealed!, sealingContext.token(row)),
      sign: deps.sealer.open(row.sign_sealed!, sealingContext.sign(row)),
      expiresAt: row.expires_at!.toISOString(),
    };
  }

  async function login(
    queries: TicketQueries,
    key: AccessTicketKey,
    row: AccessTicketRow | undefined,
    fallback: boolean,
    certificate: SigningCertificate,
    logger: HandlerContext["logger"],
  ): Promise<Result<Ticket>> {
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
    const now = deps.now();
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
        await queries.saveTicket(key, {
          tokenSealed: deps.sealer.seal(token, sealingContext.token(key)),
          signSealed: deps.sealer.seal(sign, sealingContext.sign(key)),
          generatedAt: generationTime,
          expiresAt: expirationTime,
        });
        logger.info({ ...log, expiresAt: expirationTime.toISOString() }, "access ticket obtained");
        return ok({ token, sign, expiresAt: expirationTime.toISOString() });
      }
      case "already-authenticated": {
        if (fallback && row) {
          await queries.saveRefusal(key, { retryAt, pendingUntil: null });
          logger.info(log, "renewal refused while the stored ticket lives; serving it");
          return ok(open(row));
        }
        // the authority holds a TA we never stored: it can only expire, at the latest 12 h on
        const pendingUntil =
          row?.expires_at && row.expires_at > now
            ? row.expires_at
            : new Date(now.getTime() + TA_LIFETIME_MS);
        await queries.saveRefusal(key, { retryAt, pendingUntil });
        logger.warn(
          { ...log, pendingUntil: pendingUntil.toISOString() },
          "authority holds a ticket we lack",
        );
        return fail(accessTicketPending(service, environment, pendingUntil.toISOString()));
      }
      case "error": {
        if (fallback && row) {
          await queries.saveRefusal(key, { retryAt, pendingUntil: null });
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

  function obtain(
    key: AccessTicketKey,
    certificate: SigningCertificate,
    logger: HandlerContext["logger"],
  ): Promise<Result<Ticket>> {
    return deps.tickets.withLock(key, async (queries) => {
      const row = await queries.find(key);
      const decision = decide(stateOf(row), deps.now(), deps.policy);
      switch (decision.action) {
        case "serve":
          return ok(open(row!));
        case "wait":
          return decision.fallback
            ? ok(open(row!))
            : fail(
                accessTicketPending(
                  key.service,
                  key.environment,
                  decision.availableAt.toISOString(),
                ),
              );
        case "login":
          return login(queries, key, row, decision.fallback, certificate, logger);
      }
    });
  }

  return async ({ cuit, environment, service }, ctx) => {
    if (!ctx.accountId) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const found = await deps.tickets.lookup(
      { accountId: ctx.accountId, cuit, environment },
      service,
    );
    if (!found) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const { certificate } = found;
    const now = deps.now();
    if (
      !certificate ||
      certificate.fingerprint === null ||
      !isCertificateUsable(certificate, now)
    ) {
      return fail(appError("NO_ACTIVE_CERTIFICATE"));
    }
    // the authority's identity of the TA: the X.509 certificate, not our registration of it
    const key = { environment: found.environment, fingerprint: certificate.fingerprint, service };
    const forCaller = (ticket: Ticket): Reply => ({ ...ticket, cuit: found.cuit });
    if (decide(stateOf(found.ticket), now, deps.policy).action === "serve") {
      return ok(forCaller(open(found.ticket!)));
    }
    const flightKey = `${key.environment}|${key.fingerprint}|${service}`;
    let flight = inFlight.get(flightKey);
    if (!flight) {
      flight = obtain(key, certificate, ctx.logger).finally(() => inFlight.delete(flightKey));
      inFlight.set(flightKey, flight);
    }
    const result = await flight;
    return result.ok ? ok(forCaller(result.value)) : result;
  };
}
