import { gauge } from "@pasarela/telemetry";
import type { SeriesKey } from "../db/repositories/series.js";

/** The series, by environment, whose informing is held: refused by the authority, or blocked. */
const detenidas = new Map<string, Set<string>>();
gauge(
  "pasarela_caea_informe_detenido",
  "Series of CAEA vouchers whose informing is held back: the authority refused the request (701, 780…) or a voucher rejected at informing blocks the numbers after it",
  ["environment"],
  {
    service: "wsfe",
    collect() {
      this.reset();
      for (const [environment, series] of detenidas) this.set({ environment }, series.size);
    },
  },
);

const keyOf = (s: SeriesKey) => `${s.cuit}|${s.ptoVta}|${s.cbteTipo}`;
/** Counts the series as held, or no longer held, in the gauge. */
export function holdSeries(s: SeriesKey, held: boolean) {
  const set = detenidas.get(s.environment) ?? new Set<string>();
  if (held) set.add(keyOf(s));
  else set.delete(keyOf(s));
  detenidas.set(s.environment, set);
}
