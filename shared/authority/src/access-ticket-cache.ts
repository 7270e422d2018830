import { authorityNow } from "./authority-clock.js";
import type { Bus } from "@pasarela/bus";
import {
  ticket,
  webServiceSchema,
  type Environment,
  type ReplyOf,
  type WebService,
} from "@pasarela/contracts";
import { ok, type Result } from "@pasarela/errors";
import { counter } from "@pasarela/telemetry";
import { makeSingleFlight } from "./single-flight.js";

const lookups = counter(
  "pasarela_ticket_cache_lookups_total",
  "Access tickets asked of the caller-side cache: hit (from memory), miss (asked of the ticket service), joined (waited on a request already out)",
  ["service", "result"],
);

export type AccessTicket = ReplyOf<typeof ticket.accessGet>;

export interface AccessTicketRequest {
  /**
   * the authority refused this TA although it has not expired by our clock: it is dropped
   * here, and `ticket` is asked to replace it rather than answer it again
   */
  readonly rejected?: AccessTicket | undefined;
  /** the API call's deadline, passed on to `ticket` (a shared request keeps the first one's) */
  readonly deadline?: number | undefined;
}

export interface AccessTicketCache {
  /**
   * The TA for (account, represented CUIT, environment, service): from memory while it has
   * more than `refreshAheadMs` left, otherwise from `ticket.access.get` (one request per key
   * at a time, however many callers wait). Failures are answered, never cached.
   */
  get: (
    accountId: string,
    cuit: string,
    environment: Environment,
    service: WebService,
    request?: AccessTicketRequest,
  ) => Promise<Result<AccessTicket>>;
  /**
   * Drops one entry, e.g. after the business service rejected its token; a request already on
   * its way to `ticket` for it is answered to its callers but not kept.
   */
  invalidate: (
    accountId: string,
    cuit: string,
    environment: Environment,
    service: WebService,
  ) => void;
  /** Drops every entry and keeps nothing that was asked for before. */
  clear: () => void;
}

export interface AccessTicketCacheOptions {
  /** hand back to `ticket` this long before expiry (it renews ahead of expiry too) */
  refreshAheadMs?: number;
  /**
   * how long a TA already inside the refresh window is still reused: `ticket` answers the
   * stored TA while the authority will not issue the next, and asking it on every call
   * would turn the last minutes of a TA into a request per query
   */
  nearExpiryHoldMs?: number;
  /** now in `environment`: the authority's clock (a TA's times are its own) */
  now?: (environment: string) => number;
}

interface Entry {
  readonly ticket: AccessTicket;
  readonly reuseUntil: number;
}

/**
 * The caller side of access tickets (wsfe, wsfex, padron): steady state costs no NATS trip.
 * An entry is reused until shortly before the TA expires, never past the end of its
 * certificate's validity, and dropped when the certificate changes (`followCertificateChanges`).
 */
export function makeAccessTicketCache(
  bus: Pick<Bus, "request">,
  options: AccessTicketCacheOptions = {},
): AccessTicketCache {
  const refreshAheadMs = options.refreshAheadMs ?? 120_000;
  const nearExpiryHoldMs = options.nearExpiryHoldMs ?? 30_000;
  const now = options.now ?? authorityNow;
  const entries = new Map<string, Entry>();
  const flights = makeSingleFlight<Result<AccessTicket>>();
  // An answer is kept only if nothing was invalidated since its request left: a certificate
  // replaced while `ticket` was answering must not leave the old certificate's TA behind.
  let epoch = 0;
  const generations = new Map<string, number>();
  const stampOf = (key: string) => `${epoch}:${generations.get(key) ?? 0}`;
  const keyOf = (accountId: string, cuit: string, environment: string, service: string) =>
    `${accountId}|${cuit}|${environment}|${service}`;

  function reuseUntil(expiresAt: number, at: number): number {
    const ahead = expiresAt - refreshAheadMs;
    // a few seconds of margin so a token is not sent that expires on the way
    return ahead > at ? ahead : Math.min(at + nearExpiryHoldMs, expiresAt - 5_000);
  }

  async function fetchTicket(
    key: string,
    accountId: string,
    body: { cuit: string; environment: Environment; service: WebService; rejectedToken?: string },
    deadline: number | undefined,
  ): Promise<Result<AccessTicket>> {
    const stamp = stampOf(key);
    const reply = await bus.request(ticket.accessGet, body, { accountId, deadline });
    if (reply.ok && stampOf(key) === stamp) {
      const at = now(body.environment);
      const until = Math.min(
        reuseUntil(Date.parse(reply.value.expiresAt), at),
        Date.parse(reply.value.certificateNotAfter),
      );
      if (until > at) entries.set(key, { ticket: reply.value, reuseUntil: until });
      else entries.delete(key);
    }
    return reply;
  }

  return {
    get(accountId, cuit, environment, service, request: AccessTicketRequest = {}) {
      const key = keyOf(accountId, cuit, environment, service);
      const { rejected, deadline } = request;
      const entry = entries.get(key);
      if (entry && rejected && entry.ticket.token === rejected.token) entries.delete(key);
      else if (entry && entry.reuseUntil > now(environment)) {
        lookups.inc({ service, result: "hit" });
        return Promise.resolve(ok(entry.ticket));
      }
      const rejectedToken = rejected ? ticket.accessTokenDigest(rejected.token) : undefined;
      // a report of a refused TA is its own flight: a plain one in progress may answer that TA
      const flightKey = rejectedToken ? `${key}|${rejectedToken}` : key;
      const { flight, joined } = flights.join(flightKey, () => {
        const body = { cuit, environment, service, ...(rejectedToken ? { rejectedToken } : {}) };
        return fetchTicket(key, accountId, body, deadline);
      });
      lookups.inc({ service, result: joined ? "joined" : "miss" });
      return flight;
    },
    invalidate(accountId, cuit, environment, service) {
      const key = keyOf(accountId, cuit, environment, service);
      entries.delete(key);
      generations.set(key, (generations.get(key) ?? 0) + 1);
      // later callers ask afresh rather than join a request that went out before
      flights.forget(key);
    },
    clear() {
      entries.clear();
      generations.clear();
      epoch++;
      flights.clear();
    },
  };
}

/**
 * Keeps `cache` in step with certificates on every instance: the TAs of a
 * representada whose certificate was activated or replaced are dropped on the event, and all
 * of them after a NATS reconnection, when events may have been missed.
 */
export function followCertificateChanges(
  bus: Pick<Bus, "listen" | "onReconnect">,
  cache: AccessTicketCache,
): { stop: () => void } {
  const subscription = bus.listen(ticket.certificadoActivado, (event) => {
    for (const service of webServiceSchema.options) {
      cache.invalidate(event.accountId, event.cuit, event.environment, service);
    }
  });
  bus.onReconnect(() => cache.clear());
  return { stop: () => subscription.unsubscribe() };
}
