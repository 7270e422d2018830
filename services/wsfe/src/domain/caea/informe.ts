import type { AuthorityMessage } from "../cae-answer.js";
import type { AuthorityComprobante } from "../comprobante.js";
import type { FECAEDetRequest } from "../issuance/index.js";
import { isSameVoucher } from "../reconciliation.js";
import { inicioDelDia, quincena, quincenaDe, type Quincena } from "./quincena.js";

/**
 * The decisions of informing the vouchers issued under a CAEA (FECAEARegInformativo). Pure.
 *
 * The authority takes a series' informed vouchers one number after the other (703: each must be
 * the last informed + 1), so a batch is judged as a prefix: the vouchers it accepted, then at
 * most one it judged, and nothing about the rest (refused only because the one before them was
 * not taken).
 */

const DAY_MS = 86_400_000;

/**
 * Codes in the answer's `Errors` that judge the first voucher not accepted rather than the
 * request: 704, its date is earlier than the last informed voucher's of the series (it can
 * never be informed as it is).
 */
const JUZGAN_AL_COMPROBANTE: ReadonlySet<number> = new Set([704]);

/** What one FECAEARegInformativo answer means for the numbers sent, in order. */
export interface Veredicto {
  /** accepted: informed, with the authority's observations */
  readonly informados: readonly {
    readonly cbteNro: number;
    readonly observaciones: readonly AuthorityMessage[];
  }[];
  /** the first voucher not accepted, judged on its own: it becomes caea_rechazado */
  readonly rechazado?: {
    readonly cbteNro: number;
    readonly observaciones: readonly AuthorityMessage[];
    readonly errores: readonly AuthorityMessage[];
  };
  /**
   * the authority refused the request rather than a voucher (point of sale not CAEA 701, the
   * CAEA unknown 780 or not the issuer's 705, a number that is not the next 703…): the vouchers
   * from `cbteNro` on stay pending, and the series waits before trying again
   */
  readonly detenido?: { readonly cbteNro: number; readonly errores: readonly AuthorityMessage[] };
}

/**
 * Reads a judged answer for `numeros` (consecutive, lowest first): every detail with Resultado
 * A up to the first one without it is informed; that one is rejected when the authority judged
 * it (observations of its own, or a code that names it), otherwise the series is held back
 * (`detenido`); anything after it stays pending, untouched.
 */
export function juzgarInforme(
  numeros: readonly number[],
  answer: {
    readonly detalles: readonly {
      readonly cbteDesde: number;
      readonly resultado: string;
      readonly observaciones: readonly AuthorityMessage[];
    }[];
    readonly errores: readonly AuthorityMessage[];
  },
): Veredicto {
  const informados: { cbteNro: number; observaciones: readonly AuthorityMessage[] }[] = [];
  for (const cbteNro of numeros) {
    const detalle = answer.detalles.find((d) => d.cbteDesde === cbteNro);
    if (detalle?.resultado === "A") {
      informados.push({ cbteNro, observaciones: detalle.observaciones });
      continue;
    }
    const propios = detalle?.observaciones ?? [];
    if (propios.length > 0 || answer.errores.some((e) => JUZGAN_AL_COMPROBANTE.has(e.code))) {
      return {
        informados,
        rechazado: { cbteNro, observaciones: propios, errores: answer.errores },
      };
    }
    return { informados, detenido: { cbteNro, errores: answer.errores } };
  }
  return { informados };
}

/**
 * Whether the voucher the authority holds under a number is this CAEA voucher, informed by an
 * earlier attempt whose answer was lost: informed under CAEA (EmisionTipo), with this CAEA, and
 * the same date, receiver and amounts as were handed to the customer.
 */
export function isSameCaeaVoucher(
  sent: FECAEDetRequest,
  caea: string,
  held: AuthorityComprobante,
): boolean {
  return (
    held.emisionTipo?.toUpperCase() === "CAEA" &&
    held.codAutorizacion.trim() === caea &&
    isSameVoucher(sent, held)
  );
}

/**
 * How long a series whose informing failed `intentos` times in a row waits before the next
 * attempt: `baseMs`, doubling with each failure, never more than `maxMs`; none before a failure.
 */
export function esperaTrasIntentos(intentos: number, baseMs: number, maxMs: number): number {
  if (intentos <= 0) return 0;
  return Math.min(maxMs, baseMs * 2 ** Math.min(intentos - 1, 30));
}

/** The instant the last day to inform a CAEA's vouchers (FchTopeInf, yyyymmdd) ends in Argentina. */
export function finDelPlazo(fchTopeInf: string): Date {
  return new Date(inicioDelDia(fchTopeInf).getTime() + DAY_MS);
}

/** How long before the end of FchTopeInf an uninformed voucher raises the alert. */
export const AVISO_ANTES_DEL_TOPE_MS = 48 * 3_600_000;

/** Whether vouchers still uninformed at `at` are within 48 h of their FchTopeInf (or past it). */
export const porVencer = (fchTopeInf: string, at: Date): boolean =>
  at.getTime() >= finDelPlazo(fchTopeInf).getTime() - AVISO_ANTES_DEL_TOPE_MS;

/** The fortnight before `q`. */
export function anterior(q: Pick<Quincena, "periodo" | "orden">): Quincena {
  if (q.orden === 2) return quincena(q.periodo, 1);
  const year = Math.floor(q.periodo / 100);
  const month = q.periodo % 100;
  return month === 1 ? quincena((year - 1) * 100 + 12, 2) : quincena(q.periodo - 1, 2);
}

/**
 * The fortnights whose no-movement declarations may be due at `at`: the two that ended last
 * (a CAEA's vouchers may be informed for some days after its fortnight; which of them is still
 * open is the stored CAEA's FchTopeInf to say), most recent first.
 */
export function quincenasTerminadas(at: Date): Quincena[] {
  const previa = anterior(quincenaDe(at));
  return [previa, anterior(previa)];
}

/**
 * The points of sale to declare without movement for a fortnight: the representada's CAEA
 * points of sale that issued nothing under it (`conMovimiento`: those with a CAEA voucher of
 * that fortnight, informed or not) and were not declared yet.
 */
export function puntosSinMovimiento(
  puntosDeVenta: readonly number[],
  conMovimiento: ReadonlySet<number>,
  declarados: ReadonlySet<number>,
): number[] {
  return [...new Set(puntosDeVenta)]
    .filter((p) => !conMovimiento.has(p) && !declarados.has(p))
    .sort((a, b) => a - b);
}
