import type { Bus, HandlerContext } from "@pasarela/bus";
import { ticket, type Environment } from "@pasarela/contracts";
import type { Result } from "@pasarela/errors";
import { resolvePtoVta } from "../domain/point-of-sale.js";

export type PointOfSaleResolver = (
  ctx: HandlerContext,
  query: { representada: string; environment: Environment; ptoVta?: number | undefined },
) => Promise<Result<number>>;

/**
 * Asks `ticket` for the configured point of sale only when the request omits it, so a query
 * naming its point of sale costs no extra NATS trip. Asking with `requireActiveCertificate`
 * keeps the 403s of spec §5.6 ahead of the 400 for a missing `ptoVta`.
 */
export function makePointOfSaleResolver(bus: Pick<Bus, "request">): PointOfSaleResolver {
  return async (ctx, { representada, environment, ptoVta }) => {
    if (ptoVta !== undefined) return resolvePtoVta(ptoVta, null);
    const found = await bus.request(
      ticket.representadaGet,
      { cuit: representada, environment, requireActiveCertificate: true },
      { accountId: ctx.accountId, requestId: ctx.requestId },
    );
    if (!found.ok) return found;
    return resolvePtoVta(undefined, found.value.ptoVta);
  };
}
