import type { Handler } from "@pasarela/bus";
import type { wsfe } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { WsfeAdapter } from "../adapters/wsfe.js";
import {
  DEFAULT_MONEDA,
  argentinaDate,
  listTables,
  type ParametroItem,
} from "../domain/parametros.js";

export function makeParametrosGet(deps: {
  wsfe: WsfeAdapter;
  /** the clock that says which points of sale are withdrawn already; the system's by default */
  now?: () => Date;
}): Handler<typeof wsfe.parametrosGet> {
  const now = deps.now ?? (() => new Date());
  return async ({ tabla, environment, representada, moneda }, ctx) => {
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
    const context = { today: argentinaDate(now()) };
    const items = rows.value
      .map((row) => table.map(row, context))
      .filter((item): item is ParametroItem => item !== undefined);
    return ok({ tabla, items });
  };
}
