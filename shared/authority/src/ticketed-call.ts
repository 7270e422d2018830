import type { Environment, WebService } from "@pasarela/contracts";
import type { AppError, Result } from "@pasarela/errors";
import type { AccessTicket, AccessTicketCache } from "./access-ticket-cache.js";

/** What one call with a TA came to, as judged by the adapter that classifies the answer. */
export type TicketedAttempt<T> =
  | { readonly kind: "done"; readonly result: Result<T> }
  /** the authority rejected the TA itself (expired, another service's): worth one fresh TA */
  | { readonly kind: "stale-ticket"; readonly error: AppError };

export interface TicketKey {
  readonly accountId: string;
  readonly cuit: string;
  readonly environment: Environment;
  readonly service: WebService;
}

/**
 * Runs `attempt` with the cached TA; when the adapter says the authority refused the TA
 * itself, drops it, reports it to `ticket` (which replaces it if it is still the stored one,
 * issue 9 item 11) and tries once more with the TA answered. A second refusal is answered as
 * the adapter classified it, without another report: retrying in a loop would only hammer WSAA.
 */
export async function withAccessTicket<T>(
  tickets: AccessTicketCache,
  key: TicketKey,
  attempt: (ticket: AccessTicket) => Promise<TicketedAttempt<T>>,
): Promise<Result<T>> {
  const { accountId, cuit, environment, service } = key;
  let rejected: AccessTicket | undefined;
  for (let round = 0; ; round++) {
    const ticket = await tickets.get(accountId, cuit, environment, service, { rejected });
    if (!ticket.ok) return ticket;
    const outcome = await attempt(ticket.value);
    if (outcome.kind === "done") return outcome.result;
    tickets.invalidate(accountId, cuit, environment, service);
    if (round >= 1) return { ok: false, error: outcome.error };
    rejected = ticket.value;
  }
}
