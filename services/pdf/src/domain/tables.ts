/**
 * What the printed voucher says for the authority's codes (its FEParamGet* tables): voucher
 * names and letters, document types, VAT conditions, currencies.
 */

const FAMILIES: readonly (readonly [readonly number[], string])[] = [
  [[1, 6, 11, 51], "Factura"],
  [[2, 7, 12, 52], "Nota de Débito"],
  [[3, 8, 13, 53], "Nota de Crédito"],
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

const TIPOS_DOCUMENTO: Readonly<Record<number, string>> = {
  80: "CUIT",
  86: "CUIL",
  87: "CDI",
  89: "LE",
  90: "LC",
  91: "CI Extranjera",
  92: "En trámite",
  93: "Acta Nacimiento",
  94: "Pasaporte",
  95: "CI Bs. As. RNP",
  96: "DNI",
  99: "Doc. (Otro)",
};
export const tipoDocumento = (docTipo: number): string =>
  TIPOS_DOCUMENTO[docTipo] ?? `Doc. tipo ${docTipo}`;

const CONDICIONES_IVA: Readonly<Record<number, string>> = {
  1: "IVA Responsable Inscripto",
  4: "IVA Sujeto Exento",
  5: "Consumidor Final",
  6: "Responsable Monotributo",
  7: "Sujeto No Categorizado",
  8: "Proveedor del Exterior",
  9: "Cliente del Exterior",
  10: "IVA Liberado – Ley N° 19.640",
  13: "Monotributista Social",
  15: "IVA No Alcanzado",
  16: "Monotributo Trabajador Independiente Promovido",
};
export const CONSUMIDOR_FINAL = 5;
export const condicionIva = (id: number): string => CONDICIONES_IVA[id] ?? `Condición ${id}`;

const MONEDAS: Readonly<Record<string, string>> = {
  PES: "Pesos Argentinos",
  DOL: "Dólar Estadounidense",
  "060": "Euro",
  "012": "Real",
  "021": "Libra Esterlina",
};
export const PESOS = "PES";
export const nombreMoneda = (id: string): string => MONEDAS[id] ?? id;

/** FCE opcionales as the voucher prints them. */
export const FCE_OPCIONALES: Readonly<Record<string, string>> = {
  "2101": "CBU del Emisor",
  "2102": "Alias CBU",
  "27": "Opción de Transferencia",
  "22": "Anulación",
};

/** Tributes that count as other national indirect taxes (Ley 27.743): national and internal. */
export const TRIBUTOS_NACIONALES_INDIRECTOS: ReadonlySet<number> = new Set([1, 4]);

export const COPIAS_IMPRESAS = {
  original: "ORIGINAL",
  duplicado: "DUPLICADO",
  triplicado: "TRIPLICADO",
} as const;
export type CopiaImpresa = keyof typeof COPIAS_IMPRESAS;
