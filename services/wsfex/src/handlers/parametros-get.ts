import type { Handler } from "@pasarela/bus";
import type { wsfex } from "@pasarela/contracts";
import { fail, invalidField, ok } from "@pasarela/errors";
import { argentinaDate, type WsfexAdapter } from "@pasarela/authority";
import { isEnabledPointOfSale } from "../domain/parametros.js";

export function makeParametrosGet(deps: {
  wsfex: WsfexAdapter;
  /** the clock that says what today is in Argentina; the system's by default */
  now?: () => Date;
}): Handler<typeof wsfex.parametrosGet> {
  const now = deps.now ?? (() => new Date());
  return async ({ tabla, environment, representada, monedaId, fecha }, ctx) => {
    const caller = {
      accountId: ctx.accountId,
      cuit: representada,
      environment,
      deadline: ctx.deadline,
    };
    if (tabla === "cotizacion") {
      // the contract refuses cotizacion without monedaId already; this says so to the types
      if (monedaId === undefined) {
        return fail(invalidField("monedaId", "es obligatorio con la tabla cotizacion"));
      }
      const quote = await deps.wsfex.cotizacion(caller, { monedaId, fecha });
      return quote.ok ? ok({ tabla, moneda: monedaId, ...quote.value }) : quote;
    }
    const today = argentinaDate(now());
    const items = await deps.wsfex.parametros(caller, tabla, { fecha: fecha ?? today });
    if (!items.ok) return items;
    return ok({
      tabla,
      items:
        tabla === "puntos-de-venta"
          ? items.value.filter((item) => isEnabledPointOfSale(item, today))
          : items.value,
    });
  };
}
