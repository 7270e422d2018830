import {
  AUTHORITY_STEP_MARGIN_MS,
  MIN_AUTHORITY_CALL_MS,
  type Environment,
  type WebService,
} from "@pasarela/contracts";
import { authorityUnavailable, type AppError, type Result } from "@pasarela/errors";
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
  /** the API call's deadline (HandlerContext.deadline), if it has one */
  readonly deadline?: number | undefined;
}

/**
 * Runs `attempt` with the cached TA; when the adapter says the authority refused the TA
 * itself, drops it, reports it to `ticket` (which replaces it if it is still the stored one)
 * and tries once more with the TA answered. A second refusal is answered as
 * the adapter classified it, without another report: retrying in a loop would only hammer WSAA.
 *
 * With a deadline, `attempt` gets the milliseconds its call may take (its own timeout may be
 * shorter) so it answers before the deadline; with too little left it is not made at all
 * (the budget is laid out in @pasarela/contracts' authority-query.ts).
 */
export async function withAccessTicket<T>(
  tickets: AccessTicketCache,
  key: TicketKey,
  attempt: (ticket: AccessTicket, timeoutMs: number | undefined) => Promise<TicketedAttempt<T>>,
): Promise<Result<T>> {
  const { accountId, cuit, environment, service, deadline } = key;
  let rejected: AccessTicket | undefined;
  for (let round = 0; ; round++) {
    const ticket = await tickets.get(accountId, cuit, environment, service, {
      rejected,
      deadline,
    });
    if (!ticket.ok) return ticket;
    let timeoutMs: number | undefined;
    if (deadline !== undefined) {
      timeoutMs = deadline - AUTHORITY_STEP_MARGIN_MS - Date.now();
      if (timeoutMs < MIN_AUTHORITY_CALL_MS) {
        return { ok: false, error: outOfTime(service, round) };
      }
    }
    const outcome = await attempt(ticket.value, timeoutMs);
    if (outcome.kind === "done") return outcome.result;
    tickets.invalidate(accountId, cuit, environment, service);
    if (round >= 1) return { ok: false, error: outcome.error };
    rejected = ticket.value;
  }
}

/** Named after what took the time: the ticket (WSAA), or the first call and its retry. */
function outOfTime(service: WebService, round: number): AppError {
  const name = service.toUpperCase();
  return authorityUnavailable(
    round === 0
      ? `${name} no fue consultado: obtener el ticket de acceso de WSAA agotó el plazo del pedido`
      : `${name} no fue consultado de nuevo: su primera respuesta y un ticket de acceso nuevo agotaron el plazo del pedido`,
  );
}
