/**
 * Vouchers by name, from the authority's table of voucher types (FEParamGetTiposCbte and
 * WSFEXv1's): the family, its class letter, and the whole of it ("Factura B 00003-00000003").
 */

const FAMILIES: readonly (readonly [readonly number[], string])[] = [
  [[1, 6, 11, 19, 51], "Factura"],
  [[2, 7, 12, 20, 52], "Nota de Débito"],
  [[3, 8, 13, 21, 53], "Nota de Crédito"],
  [[4, 9, 15, 54], "Recibo"],
  [[5, 10], "Nota de Venta al Contado"],
  [[34, 35], "Comprobante del Anexo I, Apartado A, inc. f), RG N° 1415"],
  [[39, 40], "Otro comprobante (RG N° 1415)"],
  [[49], "Comprobante de Compra de Bienes Usados a Consumidor Final"],
  [[60, 61], "Cuenta de Venta y Líquido Producto"],
  [[63, 64], "Liquidación"],
  [[201, 206, 211], "Factura de Crédito Electrónica MiPyME (FCE)"],
  [[202, 207, 212], "Nota de Débito Electrónica MiPyME (FCE)"],
  [[203, 208, 213], "Nota de Crédito Electrónica MiPyME (FCE)"],
];

const LETTERS: readonly (readonly [readonly number[], string])[] = [
  [[1, 2, 3, 4, 5, 34, 39, 60, 63, 201, 202, 203], "A"],
  [[6, 7, 8, 9, 10, 35, 40, 61, 64, 206, 207, 208], "B"],
  [[11, 12, 13, 15, 211, 212, 213], "C"],
  [[51, 52, 53, 54], "M"],
  [[19, 20, 21], "E"],
];

const lookup = (table: typeof FAMILIES, cbteTipo: number): string | undefined =>
  table.find(([types]) => types.includes(cbteTipo))?.[1];

/** "Factura", "Nota de Crédito", "Factura de Crédito Electrónica MiPyME (FCE)"… */
export const nombreComprobante = (cbteTipo: number): string =>
  lookup(FAMILIES, cbteTipo) ?? `Comprobante tipo ${cbteTipo}`;

/** The class letter printed in the box; the used-goods purchase (49) has none. */
export const letraComprobante = (cbteTipo: number): string => lookup(LETTERS, cbteTipo) ?? "";

const FCE = new Set([201, 202, 203, 206, 207, 208, 211, 212, 213]);
export const isFce = (cbteTipo: number): boolean => FCE.has(cbteTipo);

/** A voucher type with its letter: "Factura B", "Nota de Crédito A", "Comprobante tipo 999". */
export function tipoComprobante(cbteTipo: number): string {
  const letra = letraComprobante(cbteTipo);
  return letra ? `${nombreComprobante(cbteTipo)} ${letra}` : nombreComprobante(cbteTipo);
}

/** A voucher's number as the authority prints it: "00003-00000003". */
export const numeroComprobante = (ptoVta: number, cbteNro: number): string =>
  `${String(ptoVta).padStart(5, "0")}-${String(cbteNro).padStart(8, "0")}`;

/** A voucher by its type's name and its number: "Factura B 00003-00000003". */
export const comprobante = (c: { cbteTipo: number; ptoVta: number; cbteNro: number }): string =>
  `${tipoComprobante(c.cbteTipo)} ${numeroComprobante(c.ptoVta, c.cbteNro)}`;

/** The given voucher types as choices, by name, in the order given. */
export const opcionesComprobante = (tipos: readonly number[]): { value: number; label: string }[] =>
  tipos.map((value) => ({ value, label: tipoComprobante(value) }));
