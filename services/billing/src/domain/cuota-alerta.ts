import { billing } from "@pasarela/contracts";

/**
 * The thresholds (80 and 100 per cent of `quota`) that going from `before` to `after` units
 * used crossed: each is the first unit at or past its share (80 % of 5 is the 4th unit, of 7
 * the 6th). A quota of 0 takes no unit, so it crosses nothing.
 */
export function umbralesCruzados(
  before: number,
  after: number,
  quota: number,
): billing.CuotaUmbral[] {
  if (quota <= 0) return [];
  return billing.CUOTA_UMBRALES.filter((umbral) => {
    const unit = Math.ceil((quota * umbral) / 100);
    return before < unit && unit <= after;
  });
}
