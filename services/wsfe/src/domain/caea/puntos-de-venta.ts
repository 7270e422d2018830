import { isEnabledPointOfSale, type AuthorityRow } from "../parametros.js";

/**
 * What is wrong with using `requested` as CAEA points of sale, given FEParamGetPtosVenta's rows
 * (`Nro`, `EmisionTipo`, `Bloqueado`, `FchBaja`), or undefined when every one is a CAEA point
 * of sale the authority has enabled. The first problem found, naming the point of sale.
 */
export function caeaPointOfSaleProblem(
  rows: readonly AuthorityRow[],
  requested: readonly number[],
  today: string,
): string | undefined {
  for (const ptoVta of requested) {
    const row = rows.find((r) => Number(r.Nro?.trim()) === ptoVta);
    if (!row) {
      return `el punto de venta ${ptoVta} no figura entre los que la AFIP tiene habilitados para la representada (FEParamGetPtosVenta)`;
    }
    if (!isEnabledPointOfSale(row, today)) {
      return `el punto de venta ${ptoVta} está bloqueado o dado de baja en la AFIP`;
    }
    const tipo = row.EmisionTipo?.trim() ?? "";
    if (!/^CAEA\b/i.test(tipo)) {
      return `el punto de venta ${ptoVta} es de emisión ${tipo === "" ? "desconocida" : `"${tipo}"`} en la AFIP, no CAEA`;
    }
  }
  return undefined;
}
