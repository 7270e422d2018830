/**
 * The authority grants a CAEA per fortnight (`quincena`): `Periodo` is the month (yyyymm) and
 * `Orden` 1 the days 1–15, 2 the 16th to the month's end, in Argentine time (UTC−3, no daylight
 * saving). It may be asked for from 5 calendar days before the fortnight starts until its last
 * day (code 15006 outside that window). Pure: dates in, dates out.
 */

/** Argentina's offset from UTC, in milliseconds: UTC−3 all year. */
const ARGENTINA_OFFSET_MS = -3 * 3_600_000;
const DAY_MS = 86_400_000;
/** How many calendar days before a fortnight its CAEA may be asked for. */
export const DIAS_ANTES_DE_LA_QUINCENA = 5;

export interface Quincena {
  /** yyyymm */
  readonly periodo: number;
  readonly orden: 1 | 2;
  /** its first day, yyyymmdd */
  readonly desde: string;
  /** its last day, yyyymmdd */
  readonly hasta: string;
}

/** A calendar day as yyyymmdd. */
const yyyymmdd = (year: number, month: number, day: number) =>
  `${year}${String(month).padStart(2, "0")}${String(day).padStart(2, "0")}`;

/** The calendar day in Argentina at `at`, as year, month (1–12) and day. */
function argentineDay(at: Date): { year: number; month: number; day: number } {
  const local = new Date(at.getTime() + ARGENTINA_OFFSET_MS);
  return { year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() };
}

const daysInMonth = (year: number, month: number) =>
  new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The fortnight of `periodo` and `orden`. */
export function quincena(periodo: number, orden: 1 | 2): Quincena {
  const year = Math.floor(periodo / 100);
  const month = periodo % 100;
  return orden === 1
    ? { periodo, orden, desde: yyyymmdd(year, month, 1), hasta: yyyymmdd(year, month, 15) }
    : {
        periodo,
        orden,
        desde: yyyymmdd(year, month, 16),
        hasta: yyyymmdd(year, month, daysInMonth(year, month)),
      };
}

/** The fortnight `at` falls in, in Argentina. */
export function quincenaDe(at: Date): Quincena {
  const { year, month, day } = argentineDay(at);
  return quincena(year * 100 + month, day <= 15 ? 1 : 2);
}

/** The fortnight a calendar day (yyyymmdd) falls in. */
export function quincenaDelDia(day: string): Quincena {
  const periodo = Number(day.slice(0, 6));
  return quincena(periodo, Number(day.slice(6, 8)) <= 15 ? 1 : 2);
}

/** The moment `at` in Argentina as yyyymmddhhmmss: a CAEA voucher's CbteFchHsGen. */
export function momentoArgentino(at: Date): string {
  return new Date(at.getTime() + ARGENTINA_OFFSET_MS)
    .toISOString()
    .slice(0, 19)
    .replace(/[-T:]/g, "");
}

/** The fortnight after `q`. */
export function siguiente(q: Pick<Quincena, "periodo" | "orden">): Quincena {
  if (q.orden === 1) return quincena(q.periodo, 2);
  const year = Math.floor(q.periodo / 100);
  const month = q.periodo % 100;
  return month === 12 ? quincena((year + 1) * 100 + 1, 1) : quincena(q.periodo + 1, 1);
}

/** The instant a yyyymmdd day starts in Argentina. */
export function inicioDelDia(day: string): Date {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(4, 6));
  const date = Number(day.slice(6, 8));
  return new Date(Date.UTC(year, month - 1, date) - ARGENTINA_OFFSET_MS);
}

/** When the window to ask for `q`'s CAEA opens: 5 calendar days before it starts. */
export function ventanaAbre(q: Pick<Quincena, "desde">): Date {
  return new Date(inicioDelDia(q.desde).getTime() - DIAS_ANTES_DE_LA_QUINCENA * DAY_MS);
}

/** When it closes: the end of the fortnight's last day. */
export function ventanaCierra(q: Pick<Quincena, "hasta">): Date {
  return new Date(inicioDelDia(q.hasta).getTime() + DAY_MS);
}

/**
 * The fortnights whose CAEA may be asked for at `at`: the current one, and the next one once
 * its window opened. In order.
 */
export function quincenasPedibles(at: Date): Quincena[] {
  const actual = quincenaDe(at);
  const proxima = siguiente(actual);
  return at >= ventanaAbre(proxima) ? [actual, proxima] : [actual];
}
