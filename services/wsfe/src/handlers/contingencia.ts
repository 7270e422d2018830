import { authorityNow } from "@pasarela/authority";
import type { Bus, Handler } from "@pasarela/bus";
import type { wsfe } from "@pasarela/contracts";
import { AUTHORITY_QUERY_TIMEOUT_MS, DEADLINE_SLACK_MS, ticket } from "@pasarela/contracts";
import { fail, invalidField, ok } from "@pasarela/errors";
import type { WsfeAdapter } from "../adapters/wsfe.js";
import type { CaeasRepository, StoredCaea } from "../db/repositories/caeas.js";
import { caeaPointOfSaleProblem } from "../domain/caea/puntos-de-venta.js";
import { quincenaDe, siguiente } from "../domain/caea/quincena.js";
import { argentinaDate } from "../domain/parametros.js";

/**
 * `wsfe.contingencia.validate`: every point of sale must be one FEParamGetPtosVenta lists for
 * the representada, enabled, with EmisionTipo CAEA; 400 naming the first that is not.
 */
export function makeContingenciaValidate(deps: {
  wsfe: Pick<WsfeAdapter, "parametros">;
  now?: () => number;
}): Handler<typeof wsfe.contingenciaValidate> {
  const now = deps.now ?? Date.now;
  return async ({ environment, representada, puntosDeVenta }, ctx) => {
    if (puntosDeVenta.length === 0) return ok({ valid: true as const });
    const deadline = ctx.deadline ?? now() + AUTHORITY_QUERY_TIMEOUT_MS - DEADLINE_SLACK_MS;
    const caller = { accountId: ctx.accountId, cuit: representada, environment, deadline };
    const rows = await deps.wsfe.parametros(caller, "FEParamGetPtosVenta", "PtoVenta");
    if (!rows.ok) return rows;
    const problem = caeaPointOfSaleProblem(
      rows.value,
      puntosDeVenta,
      argentinaDate(new Date(now())),
    );
    if (problem) return fail(invalidField("contingencia.puntosDeVenta", problem));
    return ok({ valid: true as const });
  };
}

const view = (stored: StoredCaea | undefined): wsfe.Caea | null =>
  stored
    ? {
        caea: stored.caea,
        periodo: stored.periodo,
        orden: stored.orden,
        fchVigDesde: stored.fchVigDesde,
        fchVigHasta: stored.fchVigHasta,
        fchTopeInf: stored.fchTopeInf,
        obtenidoAt: stored.obtainedAt.toISOString(),
      }
    : null;

/** `wsfe.caea.list`: the current and next fortnight's CAEA of one of the account's representadas. */
export function makeCaeaList(deps: {
  bus: Pick<Bus, "request">;
  caeas: Pick<CaeasRepository, "find">;
  now?: () => number;
}): Handler<typeof wsfe.caeaList> {
  return async ({ environment, representada }, ctx) => {
    const held = await deps.bus.request(
      ticket.representadaGet,
      { cuit: representada, environment, requireActiveCertificate: false },
      { accountId: ctx.accountId, requestId: ctx.requestId, deadline: ctx.deadline },
    );
    if (!held.ok) return fail(held.error);
    const owner = { environment, cuit: representada };
    // the fortnights are the authority's: by its clock, as its answers show it
    const actual = quincenaDe(new Date(deps.now?.() ?? authorityNow(environment)));
    const [a, p] = await Promise.all([
      deps.caeas.find(owner, actual),
      deps.caeas.find(owner, siguiente(actual)),
    ]);
    return ok({ actual: view(a), proxima: view(p) });
  };
}
