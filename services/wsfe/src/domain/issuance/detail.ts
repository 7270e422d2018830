import { wsfe } from "@pasarela/contracts";
import { PESOS } from "./moneda.js";
import type { PreparedVoucher } from "./prepare.js";

/**
 * One `FECAEDetRequest` as data: keys are the authority's element names in WSDL order (the
 * authority ignores elements out of order), amounts are decimal text with two decimals, absent
 * optional elements are absent keys. Each array is the content of its wrapper, whose item
 * element `FE_ARRAY_ITEMS` names.
 */
export interface FECAEDetRequest {
  readonly Concepto: number;
  readonly DocTipo: number;
  readonly DocNro: string;
  readonly CbteDesde: number;
  readonly CbteHasta: number;
  readonly CbteFch: string;
  readonly ImpTotal: string;
  readonly ImpTotConc: string;
  readonly ImpNeto: string;
  readonly ImpOpEx: string;
  readonly ImpTrib: string;
  readonly ImpIVA: string;
  readonly FchServDesde?: string;
  readonly FchServHasta?: string;
  readonly FchVtoPago?: string;
  readonly MonId: string;
  readonly MonCotiz: string;
  readonly CanMisMonExt?: "S" | "N";
  readonly CondicionIVAReceptorId: number;
  readonly CbtesAsoc?: readonly {
    readonly Tipo: number;
    readonly PtoVta: number;
    readonly Nro: number;
    readonly Cuit?: string;
    readonly CbteFch?: string;
  }[];
  readonly Tributos?: readonly {
    readonly Id: number;
    readonly Desc?: string;
    readonly BaseImp: string;
    readonly Alic: string;
    readonly Importe: string;
  }[];
  readonly Iva?: readonly {
    readonly Id: number;
    readonly BaseImp: string;
    readonly Importe: string;
  }[];
  readonly Opcionales?: readonly { readonly Id: string; readonly Valor: string }[];
}

/** The item element inside each array wrapper of FECAEDetRequest. */
export const FE_ARRAY_ITEMS = {
  CbtesAsoc: "CbteAsoc",
  Tributos: "Tributo",
  Iva: "AlicIva",
  Opcionales: "Opcional",
} as const;

/**
 * The detail for `voucher` numbered `cbteNro` (one number: CbteDesde = CbteHasta; the gateway
 * never issues B-class ranges). `cotizacion` is the rate sent as MonCotiz: the voucher's own
 * when it has one (it must be the same), the authority's of the day otherwise. Lists that
 * would be empty are left out, as the authority requires for `Tributos` [10024] and `Iva` of
 * class C [10071]. `CanMisMonExt` goes only with a foreign currency [10241].
 */
export function feCaeDetRequest(
  voucher: PreparedVoucher,
  numbering: { readonly cbteNro: number; readonly cotizacion: string },
): FECAEDetRequest {
  const { moneda, receptor, totals } = voucher;
  const cotizacion = wsfe.canonicalDecimal(numbering.cotizacion);
  if (cotizacion === undefined || cotizacion === "0") {
    throw new Error(`MonCotiz must be a positive decimal, got ${numbering.cotizacion}`);
  }
  if (moneda.cotizacion !== undefined && moneda.cotizacion !== cotizacion) {
    throw new Error(`MonCotiz ${cotizacion} differs from the voucher's ${moneda.cotizacion}`);
  }
  return {
    Concepto: voucher.concepto,
    DocTipo: receptor.docTipo,
    DocNro: receptor.docNro,
    CbteDesde: numbering.cbteNro,
    CbteHasta: numbering.cbteNro,
    CbteFch: voucher.cbteFch,
    ImpTotal: totals.impTotal,
    ImpTotConc: totals.impTotConc,
    ImpNeto: totals.impNeto,
    ImpOpEx: totals.impOpEx,
    ImpTrib: totals.impTrib,
    ImpIVA: totals.impIVA,
    ...(voucher.fchServDesde !== undefined ? { FchServDesde: voucher.fchServDesde } : {}),
    ...(voucher.fchServHasta !== undefined ? { FchServHasta: voucher.fchServHasta } : {}),
    ...(voucher.fchVtoPago !== undefined ? { FchVtoPago: voucher.fchVtoPago } : {}),
    MonId: moneda.id,
    MonCotiz: cotizacion,
    ...(moneda.id !== PESOS ? { CanMisMonExt: moneda.mismaMonedaExtranjera ? "S" : "N" } : {}),
    CondicionIVAReceptorId: receptor.condicionIvaReceptorId,
    ...(voucher.comprobantesAsociados.length > 0
      ? {
          CbtesAsoc: voucher.comprobantesAsociados.map((c) => ({
            Tipo: c.cbteTipo,
            PtoVta: c.ptoVta,
            Nro: c.cbteNro,
            ...(c.cuit !== undefined ? { Cuit: c.cuit } : {}),
            ...(c.cbteFch !== undefined ? { CbteFch: c.cbteFch } : {}),
          })),
        }
      : {}),
    ...(voucher.tributos.length > 0
      ? {
          Tributos: voucher.tributos.map((t) => ({
            Id: t.id,
            ...(t.descripcion !== undefined ? { Desc: t.descripcion } : {}),
            BaseImp: t.baseImponible,
            Alic: t.alicuota,
            Importe: t.importe,
          })),
        }
      : {}),
    ...(voucher.iva.length > 0
      ? { Iva: voucher.iva.map((e) => ({ Id: e.id, BaseImp: e.baseImp, Importe: e.importe })) }
      : {}),
    ...(voucher.opcionales.length > 0
      ? { Opcionales: voucher.opcionales.map((o) => ({ Id: o.id, Valor: o.valor })) }
      : {}),
  };
}
