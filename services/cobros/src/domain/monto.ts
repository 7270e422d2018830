import Big from "big.js";

/**
 * The amount a link charges, in pesos: the caller's, else the voucher's total (a voucher in
 * another currency at its exchange rate), rounded half-up to cents. It may be less than the
 * total (a partial payment) but never more.
 */
export function montoDelLink(
  totales: { impTotal: string },
  moneda: { id: string; cotizacion: string },
  pedido: string | undefined,
): { ok: true; monto: string } | { ok: false; total: string } {
  const total = new Big(totales.impTotal)
    .times(moneda.id === "PES" ? 1 : moneda.cotizacion)
    .round(2, Big.roundHalfUp);
  if (pedido === undefined) return { ok: true, monto: total.toFixed(2) };
  const monto = new Big(pedido).round(2, Big.roundHalfUp);
  if (monto.gt(total)) return { ok: false, total: total.toFixed(2) };
  return { ok: true, monto: monto.toFixed(2) };
}

/** Two decimal texts that are the same amount of money. */
export const sameMonto = (a: string, b: string): boolean => new Big(a).eq(new Big(b));

const DAY_MS = 24 * 3600 * 1000;
export const DEFAULT_LINK_DAYS = 30;

/**
 * When a link stops taking payments: the end of the given day in Argentina (UTC−3, no DST),
 * else 30 days from now. Undefined when the day has already ended.
 */
export function venceDelLink(vencimiento: string | undefined, now: Date): Date | undefined {
  if (vencimiento === undefined) return new Date(now.getTime() + DEFAULT_LINK_DAYS * DAY_MS);
  const [y, m, d] = vencimiento.split("-").map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  // 2026-02-30 is no day at all
  if (day.getUTCFullYear() !== y || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) {
    return undefined;
  }
  const end = new Date(`${vencimiento}T23:59:59.999-03:00`);
  return end.getTime() > now.getTime() ? end : undefined;
}
