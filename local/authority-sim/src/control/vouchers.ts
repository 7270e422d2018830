import type { EnvState } from "../state.js";
import { caeaVouchers } from "../wsfe/caea.js";
import type { SimCaeas, SimExportVoucher, SimVoucher } from "./client.js";

type Series<V> = Record<string, { last: number; vouchers: V[] }>;

/** Every WSFEv1 voucher of the environment, per series (`cuit|ptoVta|cbteTipo`). */
export function domesticSeries(state: EnvState): Series<SimVoucher> {
  return Object.fromEntries(
    Object.entries(state.fe).map(([key, s]) => [
      key,
      {
        last: s.last,
        vouchers: Object.entries(s.vouchers).map(([nro, v]) => ({
          cbteNro: Number(nro),
          cae: v.cae,
          cbteFch: v.cbteFch,
          docTipo: v.docTipo,
          docNro: v.docNro,
          impTotal: v.impTotal,
        })),
      },
    ]),
  );
}

/**
 * Every WSFEXv1 voucher of the environment, per series (`cuit|ptoVta|cbteTipo`), in the order
 * they were authorized, each with the request Id that got it its CAE.
 */
export function exportSeries(state: EnvState): Series<SimExportVoucher> {
  const series: Series<SimExportVoucher> = {};
  for (const [key, s] of Object.entries(state.fex.series)) {
    series[key] = { last: s.last, vouchers: [] };
  }
  for (const v of Object.values(state.fex.vouchers)) {
    series[`${v.cuit}|${v.puntoVta}|${v.cbteTipo}`]?.vouchers.push({
      cbteNro: v.cbteNro,
      id: v.id,
      cae: v.cae,
      fechaCbte: v.fechaCbte,
      monedaId: v.fields["Moneda_Id"] ?? "",
      impTotal: Number(v.fields["Imp_total"] ?? 0),
    });
  }
  return series;
}

/**
 * The CAEAs granted to a CUIT, by period and order, each with the vouchers informed under it
 * and the points of sale declared without movement.
 */
export function caeaReport(state: EnvState, cuit: string): SimCaeas {
  const grants = Object.values(state.caeas)
    .filter((g) => g.cuit === cuit)
    .sort((x, y) => x.periodo - y.periodo || x.orden - y.orden);
  return {
    caeas: grants.map((g) => ({
      caea: g.caea,
      periodo: g.periodo,
      orden: g.orden,
      fchVigDesde: g.fchVigDesde,
      fchVigHasta: g.fchVigHasta,
      fchTopeInf: g.fchTopeInf,
      fchProceso: g.fchProceso,
      vouchers: caeaVouchers(state, g).map(({ ptoVta, cbteTipo, cbteNro, v }) => ({
        ptoVta,
        cbteTipo,
        cbteNro,
        cbteFch: v.cbteFch,
        cbteFchHsGen: v.cbteFchHsGen ?? "",
        docTipo: v.docTipo,
        docNro: v.docNro,
        impTotal: v.impTotal,
        fchProceso: v.fchProceso,
      })),
      sinMovimiento: state.caeaSinMovimiento
        .filter((s) => s.cuit === cuit && s.caea === g.caea)
        .map((s) => ({ ptoVta: s.ptoVta, fchProceso: s.fchProceso })),
    })),
  };
}
