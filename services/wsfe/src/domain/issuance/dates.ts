import type { wsfe } from "@pasarela/contracts";
import { fail, ok, totalsInvalid, type AppError, type Result } from "@pasarela/errors";
import { argentinaDate } from "../parametros.js";
import { isFce, isFceInvoice, isNote } from "./voucher-types.js";

/** The default `cbteFch` is today in Argentina (UTC−3, no daylight saving). */
export const argentinaToday = argentinaDate;

const DAY_MS = 86_400_000;
const toUtc = (yyyymmdd: string) =>
  Date.UTC(
    Number(yyyymmdd.slice(0, 4)),
    Number(yyyymmdd.slice(4, 6)) - 1,
    Number(yyyymmdd.slice(6, 8)),
  );
const fromUtc = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll("-", "");

/** `yyyymmdd` moved by whole days. */
function addDays(yyyymmdd: string, days: number): string {
  return fromUtc(toUtc(yyyymmdd) + days * DAY_MS);
}

/** The last day of the month of `yyyymmdd`. */
function endOfMonth(yyyymmdd: string): string {
  const year = Number(yyyymmdd.slice(0, 4));
  const month = Number(yyyymmdd.slice(4, 6));
  return fromUtc(Date.UTC(year, month, 0));
}

export interface VoucherDates {
  readonly cbteFch: string;
  readonly fchServDesde?: string;
  readonly fchServHasta?: string;
  readonly fchVtoPago?: string;
}

type DatesRequest = Pick<
  wsfe.FacturaIssueRequest,
  "concepto" | "cbteFch" | "fchServDesde" | "fchServHasta" | "fchVtoPago"
>;

/**
 * The window the authority accepts for `CbteFch` around the day it receives the request
 * [10016]: ±5 days for products, never past the current month; ±10 for services; FCE invoices
 * N−5..N+1, FCE notes N−5..N.
 */
function cbteFchWindow(
  cbteTipo: number,
  concepto: 1 | 2 | 3,
  today: string,
): { from: string; to: string; rule: string } {
  if (isFce(cbteTipo)) {
    return isNote(cbteTipo)
      ? { from: addDays(today, -5), to: today, rule: "de hoy a 5 días atrás en notas FCE" }
      : {
          from: addDays(today, -5),
          to: addDays(today, 1),
          rule: "de 5 días atrás a mañana en facturas FCE",
        };
  }
  if (concepto === 1) {
    const plus5 = addDays(today, 5);
    const monthEnd = endOfMonth(today);
    return {
      from: addDays(today, -5),
      to: plus5 < monthEnd ? plus5 : monthEnd,
      rule: "hoy ± 5 días con concepto 1, sin pasar del mes en curso",
    };
  }
  return {
    from: addDays(today, -10),
    to: addDays(today, 10),
    rule: "hoy ± 10 días con concepto 2 o 3",
  };
}

/**
 * The authority's date rules [10016, 10031–10036, 10049], FCE's included: `cbteFch` defaults to
 * `today` and must fall in the authority's window; service dates go with concepto 2 and 3 and
 * are then required, as is `fchVtoPago` (but on FCE notes, which carry it only when they
 * annul); FCE invoices always need `fchVtoPago`, not before the voucher nor today;
 * `fchServDesde` ≤ `fchServHasta`; `fchVtoPago` ≥ `cbteFch`.
 */
export function resolveDates(
  request: DatesRequest,
  cbteTipo: number,
  anulacion: boolean | undefined,
  today: string,
): Result<VoucherDates> {
  const cbteFch = request.cbteFch ?? today;
  const { concepto, fchServDesde, fchServHasta, fchVtoPago } = request;
  const problem = (field: string, text: string): Result<VoucherDates> =>
    fail<VoucherDates>(totalsInvalid(field, text));

  const window = cbteFchWindow(cbteTipo, concepto, today);
  if (cbteFch < window.from || cbteFch > window.to) {
    return problem(
      "cbteFch",
      `debe estar entre ${window.from} y ${window.to} (${window.rule}; hoy es ${today} en la Argentina)`,
    );
  }
  if (concepto === 1) {
    const sent =
      fchServDesde !== undefined
        ? "fchServDesde"
        : fchServHasta !== undefined
          ? "fchServHasta"
          : undefined;
    if (sent !== undefined) return problem(sent, "solo se informa con concepto 2 o 3 (servicios)");
  } else {
    // an FCE note carries a payment date only when it annuls
    const fceNote = isFce(cbteTipo) && isNote(cbteTipo);
    const missing = [
      ["fchServDesde", fchServDesde],
      ["fchServHasta", fchServHasta],
      ...(fceNote ? [] : [["fchVtoPago", fchVtoPago]]),
    ].find(([, value]) => value === undefined)?.[0];
    if (missing !== undefined) {
      return problem(missing, `es obligatorio cuando concepto es ${concepto} (servicios)`);
    }
    if (fchServDesde !== undefined && fchServHasta !== undefined && fchServDesde > fchServHasta) {
      return problem("fchServHasta", `debe ser igual o posterior a fchServDesde (${fchServDesde})`);
    }
  }

  const vtoProblem = paymentDueProblem(cbteTipo, concepto, anulacion, fchVtoPago, cbteFch, today);
  if (vtoProblem !== undefined) return fail(vtoProblem);
  return ok({
    cbteFch,
    ...(fchServDesde !== undefined ? { fchServDesde } : {}),
    ...(fchServHasta !== undefined ? { fchServHasta } : {}),
    ...(fchVtoPago !== undefined ? { fchVtoPago } : {}),
  });
}

/**
 * `fchVtoPago`: required on FCE invoices, not before the voucher nor today; on FCE notes only
 * when they annul; otherwise only with concepto 2 or 3. Never before the voucher.
 */
function paymentDueProblem(
  cbteTipo: number,
  concepto: 1 | 2 | 3,
  anulacion: boolean | undefined,
  fchVtoPago: string | undefined,
  cbteFch: string,
  today: string,
): AppError | undefined {
  if (isFceInvoice(cbteTipo)) {
    if (fchVtoPago === undefined) {
      return totalsInvalid(
        "fchVtoPago",
        "es obligatorio en facturas de crédito electrónicas MiPyME (tipos 201, 206 y 211)",
      );
    }
    const floor = cbteFch > today ? cbteFch : today;
    return fchVtoPago < floor
      ? totalsInvalid(
          "fchVtoPago",
          `debe ser igual o posterior a la fecha del comprobante y a hoy (${floor}) en facturas FCE`,
        )
      : undefined;
  }
  if (fchVtoPago === undefined) return undefined;
  if (isFce(cbteTipo) && anulacion !== true) {
    return totalsInvalid(
      "fchVtoPago",
      "en notas FCE solo se informa si la nota es una anulación (fce.anulacion true)",
    );
  }
  if (!isFce(cbteTipo) && concepto === 1) {
    return totalsInvalid(
      "fchVtoPago",
      "solo se informa con concepto 2 o 3 (servicios) o en comprobantes FCE",
    );
  }
  return fchVtoPago < cbteFch
    ? totalsInvalid(
        "fchVtoPago",
        `debe ser igual o posterior a la fecha del comprobante (${cbteFch})`,
      )
    : undefined;
}
