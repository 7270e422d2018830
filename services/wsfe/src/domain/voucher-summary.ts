import type { wsfex } from "@pasarela/contracts";
import type { FECAEDetRequest } from "./issuance/index.js";

/**
 * What a voucher was sent to the authority as: a FECAEDetRequest (WSFEv1) or a ClsFEXRequest
 * (WSFEXv1, export types 19–21). Stored as sent, and sent again unchanged by reconciliation.
 */
export type SentVoucher = FECAEDetRequest | wsfex.FexCmp;

/**
 * The columns every stored voucher has, domestic or export: what the list, the totals and
 * the events read without knowing the kind. Amounts as exact decimal text with two decimals.
 */
export interface VoucherSummary {
  readonly concepto: number;
  readonly cbteFch: string;
  readonly docTipo: number;
  readonly docNro: string;
  readonly monedaId: string;
  readonly monedaCotizacion: string;
  readonly impTotal: string;
  readonly impNeto: string;
  readonly impIVA: string;
  readonly impTrib: string;
  readonly impTotConc: string;
  readonly impOpEx: string;
}

/** A domestic voucher's summary: the FECAEDetRequest's own fields. */
export function domesticSummary(sent: FECAEDetRequest): VoucherSummary {
  return {
    concepto: sent.Concepto,
    cbteFch: sent.CbteFch,
    docTipo: sent.DocTipo,
    docNro: sent.DocNro,
    monedaId: sent.MonId,
    monedaCotizacion: sent.MonCotiz,
    impTotal: sent.ImpTotal,
    impNeto: sent.ImpNeto,
    impIVA: sent.ImpIVA,
    impTrib: sent.ImpTrib,
    impTotConc: sent.ImpTotConc,
    impOpEx: sent.ImpOpEx,
  };
}
