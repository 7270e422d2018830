import type { Handler } from "@pasarela/bus";
import type { wsfe } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { WsfeAdapter } from "../adapters/wsfe.js";
import { DEFAULT_MONEDA, listTables, type ParametroItem } from "../domain/parametros.js";

export function makeParametrosGet(deps: { wsfe: WsfeAdapter }): Handler<typeof wsfe.parametrosGet> {
  return async ({ tabla, environment, representada, moneda }, ctx) => {
    if (!ctx.accountId) return fail(appError("REPRESENTADA_NOT_FOUND"));
    const caller = {
      accountId: ctx.accountId,
      cuit: representada,
      environment,
      deadline: ctx.deadline,
    };
    if (tabla === "cotizacion") {
      const quote = await deps.wsfe.cotizacion(caller, moneda ?? DEFAULT_MONEDA);
      return quote.ok ? ok({ tabla, ...quote.value }) : quote;
    }
    const table = listTables[tabla];
    const rows = await deps.wsfe.parametros(caller, table.operation, table.row);
    if (!rows.ok) return rows;
    const items = rows.value
      .map(table.map)
      .filter((item): item is ParametroItem => item !== undefined);
    return ok({ tabla, items });
  };
}
