import type { AccountContext, Bus } from "@pasarela/bus";
import { ticket, type Environment } from "@pasarela/contracts";
import type { Result } from "@pasarela/errors";
import { resolvePtoVta } from "../domain/point-of-sale.js";

export type PointOfSaleResolver = (
  ctx: AccountContext,
  query: { representada: string; environment: Environment; ptoVta?: number | undefined },
) => Promise<Result<number>>;

/**
 * Asks `ticket` for the configured point of sale only when the request omits it, so a query
 * naming its point of sale costs no extra NATS trip. Asking with `requireActiveCertificate`
 * keeps the 403s of an unregistered representada or one without an active certificate ahead of
 * the 400 for a missing `ptoVta`.
 */
export function makePointOfSaleResolver(
  bus: Pick<Bus, "request">,
  options: { ttlMs?: number; now?: () => number } = {},
): PointOfSaleResolver {
  // A representada's configured point of sale is fixed at registration, so a short-lived copy
  // spares the ticket round trip on every query that omits `ptoVta`; refusals are not kept.
  const ttlMs = options.ttlMs ?? 30_000;
  const now = options.now ?? Date.now;
  const configured = new Map<string, { ptoVta: number | null; until: number }>();
  return async (ctx, { representada, environment, ptoVta }) => {
    if (ptoVta !== undefined) return resolvePtoVta(ptoVta, null);
    const key = `${ctx.accountId}|${representada}|${environment}`;
    const cached = configured.get(key);
    if (cached && cached.until > now()) return resolvePtoVta(undefined, cached.ptoVta);
    const found = await bus.request(
      ticket.representadaGet,
      { cuit: representada, environment, requireActiveCertificate: true },
      { accountId: ctx.accountId, requestId: ctx.requestId, deadline: ctx.deadline },
    );
    if (!found.ok) return found;
    configured.set(key, { ptoVta: found.value.ptoVta, until: now() + ttlMs });
    return resolvePtoVta(undefined, found.value.ptoVta);
  };
}
