import type { AppError } from "./app-error.js";

/** The voucher a message speaks of: its series and number. */
export interface VoucherRef {
  /** unknown when the caller left it to the representada's configured point of sale */
  readonly ptoVta?: number | undefined;
  readonly cbteTipo: number;
  readonly cbteNro?: number | undefined;
}

/**
 * the request reached the authority and no usable answer came back (timeout,
 * dropped connection, 5xx, unreadable). A 502 like any authority failure, worded so nobody
 * reads it as "not issued": the gateway settles the voucher with the authority before that
 * series issues again.
 */
export function issuanceOutcomeUnknown(voucher: VoucherRef, cause: AppError): AppError {
  const which =
    voucher.ptoVta === undefined
      ? `de tipo ${voucher.cbteTipo}`
      : voucher.cbteNro === undefined
        ? `del punto de venta ${voucher.ptoVta}, tipo ${voucher.cbteTipo}`
        : `${voucher.cbteTipo}-${voucher.ptoVta}-${voucher.cbteNro}`;
  return {
    code: "AUTHORITY_UNAVAILABLE",
    message: `${cause.message}. El comprobante ${which} pudo haber sido autorizado: no lo des por no emitido; la pasarela lo verifica con la AFIP antes de volver a numerar esa serie. Reintentá con la misma Idempotency-Key, o consultá /api/wsfe/comprobante antes de emitirlo de nuevo.`,
    details: {
      ...cause.details,
      outcome: "unknown",
      ...(voucher.ptoVta === undefined ? {} : { ptoVta: voucher.ptoVta }),
      cbteTipo: voucher.cbteTipo,
      ...(voucher.cbteNro === undefined ? {} : { cbteNro: voucher.cbteNro }),
    },
  };
}
