import { wsfe } from "@pasarela/contracts";

/**
 * What the authority's rules need to know about a voucher type, as data.
 */

/** The letter of a voucher; `M` is the authority's `ALEY`, `49` the used-goods purchase. */
export type VoucherClass = "A" | "B" | "C" | "M" | "49";

const classes: ReadonlyMap<number, VoucherClass> = new Map<number, VoucherClass>([
  ...[1, 2, 3, 4, 5, 34, 39, 60, 63, 201, 202, 203].map((t) => [t, "A"] as const),
  ...[6, 7, 8, 9, 10, 35, 40, 61, 64, 206, 207, 208].map((t) => [t, "B"] as const),
  ...[11, 12, 13, 15, 211, 212, 213].map((t) => [t, "C"] as const),
  ...[51, 52, 53, 54].map((t) => [t, "M"] as const),
  [49, "49"],
]);

/** The class of a WSFEv1 voucher type; undefined for a type the gateway does not issue. */
export function voucherClass(cbteTipo: number): VoucherClass | undefined {
  return classes.get(cbteTipo);
}

// the contract holds the lists, so the OpenAPI document states the same rules
const FCE_TYPES: ReadonlySet<number> = new Set(wsfe.FCE_CBTE_TIPOS);
export const FCE_INVOICES: ReadonlySet<number> = new Set(wsfe.FCE_FACTURA_TIPOS);
export const NOTES: ReadonlySet<number> = new Set(wsfe.NOTA_TIPOS);

export const isFce = (cbteTipo: number): boolean => FCE_TYPES.has(cbteTipo);
export const isFceInvoice = (cbteTipo: number): boolean => FCE_INVOICES.has(cbteTipo);
export const isNote = (cbteTipo: number): boolean => NOTES.has(cbteTipo);

/** Types that may carry `CbtesAsoc` at all [10040]. */
export const ASSOCIATIONS_ALLOWED: ReadonlySet<number> = new Set([
  1, 2, 3, 6, 7, 8, 12, 13, 51, 52, 53, 201, 202, 203, 206, 207, 208, 211, 212, 213,
]);

const aNotes = [1, 2, 3, 4, 5, 34, 39, 60, 63, 88, 991];
const bNotes = [6, 7, 8, 9, 10, 35, 40, 61, 64, 88, 991];
const cNotes = [11, 12, 13, 15];
const mNotes = [51, 52, 53, 54];
/** Which types each note may associate [10040]; FCE notes associate their own class. */
export const ASSOCIABLE: Readonly<Record<number, readonly number[]>> = {
  2: aNotes,
  3: aNotes,
  7: bNotes,
  8: bNotes,
  12: cNotes,
  13: cNotes,
  52: mNotes,
  53: mNotes,
  202: [201, 202, 203],
  203: [201, 202, 203],
  207: [206, 207, 208],
  208: [206, 207, 208],
  212: [211, 212, 213],
  213: [211, 212, 213],
};

/**
 * Receiver VAT conditions each class admits [10243], as FEParamGetCondicionIvaReceptor
 * publishes them (`Cmp_Clase`): A and M go to registered taxpayers and monotributistas, B to
 * everyone else, C to anyone, 49 to final consumers.
 */
export const CONDICIONES_POR_CLASE: Readonly<Record<VoucherClass, readonly number[]>> = {
  A: [1, 6, 13, 16],
  M: [1, 6, 13, 16],
  B: [4, 5, 7, 8, 9, 10, 15],
  C: [1, 4, 5, 6, 7, 8, 9, 10, 13, 15, 16],
  "49": [5],
};

/** Opcionales that belong to FCE only [10169], by what the `fce` block calls them. */
export const FCE_OPCIONALES = wsfe.FCE_OPCIONALES;

/** Opcional ids that may appear more than once in one voucher [10054]; 23 with distinct values. */
export const REPEATABLE_OPCIONALES: ReadonlySet<string> = new Set([
  "23",
  "1801",
  "1802",
  "2901",
  "2902",
]);
