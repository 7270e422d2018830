import type { Environment } from "@pasarela/contracts";

/** The full tuple that identifies a voucher of an account (spec §7.2, PDF row). */
export interface ComprobanteKey {
  readonly accountId: string;
  readonly environment: Environment;
  readonly cuit: string;
  readonly ptoVta: number;
  readonly cbteTipo: number;
  readonly cbteNro: number;
}

/** Spec §2.5 `email`. */
export interface EmailRecord {
  readonly to: string;
  readonly status: string;
  readonly error: string | null;
}

/** What FECompConsultar says about a voucher, already read into numbers by the adapter. */
export interface AuthorityComprobante {
  readonly codAutorizacion: string;
  readonly resultado: string;
  readonly cbteDesde: number;
  readonly cbteHasta: number;
  readonly cbteFch: string;
  readonly impTotal: number;
  readonly impNeto: number;
  readonly impIVA: number;
}

/** Two decimals, rounding half away from zero as amounts are printed on a voucher. */
export function twoDecimals(value: number): number {
  return (Math.sign(value) * Math.round((Math.abs(value) + Number.EPSILON) * 100)) / 100;
}

/** Spec §2.5: the authority's content, `impTotal` to two decimals, `email` only when known. */
export function foundComprobante(voucher: AuthorityComprobante, email: EmailRecord | undefined) {
  return {
    found: true as const,
    codAutorizacion: voucher.codAutorizacion,
    resultado: voucher.resultado,
    cbteDesde: voucher.cbteDesde,
    cbteHasta: voucher.cbteHasta,
    cbteFch: voucher.cbteFch,
    impTotal: twoDecimals(voucher.impTotal),
    impNeto: voucher.impNeto,
    impIVA: voucher.impIVA,
    ...(email ? { email: { to: email.to, status: email.status, error: email.error } } : {}),
  };
}
