import type { AppError } from "./app-error.js";
import { catalogue } from "./catalogue.js";

/** One observation, error or event of the authority, as it answered it. */
export interface AuthorityNote {
  readonly code: number;
  readonly msg: string;
}

/** The voucher a message speaks of: its series and number. */
export interface VoucherRef {
  readonly ptoVta: number;
  readonly cbteTipo: number;
  readonly cbteNro?: number | undefined;
}

// spec §7.3, 10016: the number or date is not the next; after a retry, the first attempt won
const HINT_10016 =
  "Consultá el último comprobante autorizado (/api/wsfe/ultimo-comprobante) y emití el siguiente; si esto sucede después de un reintento, probablemente el intento anterior se emitió.";
// spec §7.3, 11002 (10005 in FECAESolicitar): the point of sale is not a web-services one
const HINT_POINT_OF_SALE =
  'El punto de venta debe estar dado de alta en la AFIP con la modalidad "web services" (RECE/CAE), también en homologación; /api/wsfe/parametros/puntos-de-venta lista los habilitados.';

/**
 * Spec §2.6, §7.2: the authority answered Resultado R. The message quotes its codes and texts,
 * plus the spec's hint for 10016 and for a point of sale not enabled (11002, 10005); the body
 * carries `resultado`, `observaciones` and `errores` at top level (the edge lifts them from
 * `details`), each entry `{code, msg}` as the authority answered it.
 */
export function authorityRejected(
  voucher: VoucherRef,
  answer: {
    readonly observaciones: readonly AuthorityNote[];
    readonly errores: readonly AuthorityNote[];
    readonly eventos?: readonly AuthorityNote[];
  },
): AppError {
  const notes = [...answer.errores, ...answer.observaciones];
  const codes = new Set(notes.map((n) => n.code));
  const quoted = notes.map((n) => `${n.code}: ${n.msg}`).join("; ");
  const hints = [
    ...(codes.has(10016) ? [HINT_10016] : []),
    ...(codes.has(11002) || codes.has(10005) ? [HINT_POINT_OF_SALE] : []),
  ];
  return {
    code: "AUTHORITY_REJECTED",
    message: [
      `${catalogue.AUTHORITY_REJECTED.message}${quoted ? ` (${quoted})` : ""}.`,
      ...hints,
    ].join(" "),
    details: {
      resultado: "R",
      observaciones: answer.observaciones,
      errores: answer.errores,
      ...(answer.eventos && answer.eventos.length > 0 ? { eventos: answer.eventos } : {}),
      ptoVta: voucher.ptoVta,
      cbteTipo: voucher.cbteTipo,
      ...(voucher.cbteNro === undefined ? {} : { cbteNro: voucher.cbteNro }),
    },
  };
}

/**
 * Spec §7.6: the request reached the authority and no usable answer came back (timeout,
 * dropped connection, 5xx, unreadable). A 502 like any authority failure, worded so nobody
 * reads it as "not issued": the gateway settles the voucher with the authority before that
 * series issues again.
 */
export function issuanceOutcomeUnknown(voucher: VoucherRef, cause: AppError): AppError {
  const which =
    voucher.cbteNro === undefined
      ? `del punto de venta ${voucher.ptoVta}, tipo ${voucher.cbteTipo}`
      : `${voucher.cbteTipo}-${voucher.ptoVta}-${voucher.cbteNro}`;
  return {
    code: "AUTHORITY_UNAVAILABLE",
    message: `${cause.message}. El comprobante ${which} pudo haber sido autorizado: no lo des por no emitido; la pasarela lo verifica con la AFIP antes de volver a numerar esa serie. Reintentá con la misma Idempotency-Key, o consultá /api/wsfe/comprobante antes de emitirlo de nuevo.`,
    details: {
      ...cause.details,
      outcome: "unknown",
      ptoVta: voucher.ptoVta,
      cbteTipo: voucher.cbteTipo,
      ...(voucher.cbteNro === undefined ? {} : { cbteNro: voucher.cbteNro }),
    },
  };
}
