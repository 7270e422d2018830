import type { wsfe } from "@pasarela/contracts";
import { fail, ok, totalsInvalid, type Result } from "@pasarela/errors";

/** The national currency, the default. */
export const PESOS = "PES";

/**
 * The voucher's currency. `cotizacion` undefined means "the authority's rate of the day":
 * whoever calls the authority asks FEParamGetCotizacion and passes the rate on.
 */
export interface MonedaResuelta {
  readonly id: string;
  readonly cotizacion?: string;
  readonly mismaMonedaExtranjera: boolean;
}

/**
 * Default PES at 1. For PES the rate is 1 [10039] and it cannot be paid "in the same foreign
 * currency" [10241]; a foreign currency keeps the caller's rate or waits for the authority's.
 */
export function resolveMoneda(moneda: wsfe.Moneda | undefined): Result<MonedaResuelta> {
  const id = moneda?.id ?? PESOS;
  const mismaMonedaExtranjera = moneda?.mismaMonedaExtranjera ?? false;
  if (id === PESOS) {
    if (moneda?.cotizacion !== undefined && moneda.cotizacion !== "1") {
      return fail(
        totalsInvalid("moneda.cotizacion", `debe ser 1 para PES, no ${moneda.cotizacion}`),
      );
    }
    if (mismaMonedaExtranjera) {
      return fail(
        totalsInvalid(
          "moneda.mismaMonedaExtranjera",
          "no se admite con PES: es para comprobantes en moneda extranjera",
        ),
      );
    }
    return ok({ id, cotizacion: "1", mismaMonedaExtranjera });
  }
  return ok({
    id,
    ...(moneda?.cotizacion !== undefined ? { cotizacion: moneda.cotizacion } : {}),
    mismaMonedaExtranjera,
  });
}
