import type { Environment } from "@pasarela/contracts";
import { amountNumber, twoDecimals, type DecimalText } from "./amount.js";

/** The full tuple that identifies a voucher of an account: all five must match. */
export interface ComprobanteKey {
  readonly accountId: string;
  readonly environment: Environment;
  readonly cuit: string;
  readonly ptoVta: number;
  readonly cbteTipo: number;
  readonly cbteNro: number;
}

/** `email` of a voucher: where it was sent and how that went. */
export interface EmailRecord {
  readonly to: string;
  readonly status: string;
  readonly error: string | null;
}

/**
 * What FECompConsultar says about a voucher: numbers read by the adapter, amounts kept as the
 * authority's decimal text so rounding works on the decimal it printed, not on a double.
 */
export interface AuthorityComprobante {
  readonly codAutorizacion: string;
  readonly resultado: string;
  /** the receiver as stored by the authority; reconciliation compares it with what was sent */
  readonly docTipo?: number | undefined;
  readonly docNro?: string | undefined;
  /** CAE, or CAEA for a voucher issued in contingency and informed (FECAEARegInformativo) */
  readonly emisionTipo?: string | undefined;
  /** the CAE's due date (yyyymmdd) */
  readonly fchVto?: string | undefined;
  readonly cbteDesde: number;
  readonly cbteHasta: number;
  readonly cbteFch: string;
  readonly impTotal: DecimalText;
  readonly impNeto: DecimalText;
  readonly impIVA: DecimalText;
}

/**
 * The voucher as the API answers it: the authority's content, `impTotal` to two decimals,
 * `emisionTipo` CAEA for a voucher informed under a CAEA, `email` only when known.
 */
export function foundComprobante(voucher: AuthorityComprobante, email: EmailRecord | undefined) {
  const { emisionTipo } = voucher;
  return {
    found: true as const,
    codAutorizacion: voucher.codAutorizacion,
    resultado: voucher.resultado,
    cbteDesde: voucher.cbteDesde,
    cbteHasta: voucher.cbteHasta,
    cbteFch: voucher.cbteFch,
    impTotal: twoDecimals(voucher.impTotal),
    impNeto: amountNumber(voucher.impNeto),
    impIVA: amountNumber(voucher.impIVA),
    // a voucher informed under a CAEA says so; one with its own CAE answers as it always did
    ...(emisionTipo === "CAEA" ? { emisionTipo: "CAEA" as const } : {}),
    ...(email ? { email: { to: email.to, status: email.status, error: email.error } } : {}),
  };
}
