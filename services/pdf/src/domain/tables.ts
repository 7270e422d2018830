/**
 * What only the printed voucher says for the authority's codes; voucher names and letters,
 * document types, VAT conditions and currencies are @pasarela/formato's, shared with the panel.
 */

/** FCE opcionales as the voucher prints them. */
export const FCE_OPCIONALES: Readonly<Record<string, string>> = {
  "2101": "CBU del Emisor",
  "2102": "Alias CBU",
  "27": "Opción de Transferencia",
  "22": "Anulación",
};

/** Tributes that count as other national indirect taxes (Ley 27.743): national and internal. */
export const TRIBUTOS_NACIONALES_INDIRECTOS: ReadonlySet<number> = new Set([1, 4]);

/** The copies a voucher is printed in; their names are each language's (etiquetas.ts). */
export type CopiaImpresa = "original" | "duplicado" | "triplicado";
