/**
 * The receiver's VAT condition (`CondicionIVAReceptorId`, RG 5616) from a constancia, by the
 * rule pyafipws applies, with the ids of the `condicion-iva-receptor` table
 * (FEParamGetCondicionIvaReceptor). In the rule's order, the first that holds decides:
 *
 * | the constancia shows                              | id | condition                   |
 * |---------------------------------------------------|----|-----------------------------|
 * | tax 32 (IVA EXENTO)                               |  4 | IVA Sujeto Exento           |
 * | tax 33 (IVA RESPONSABLE NO INSCRIPTO)             |  7 | Sujeto No Categorizado      |
 * | tax 34 (IVA NO ALCANZADO)                         | 15 | IVA No Alcanzado            |
 * | tax 30 (IVA)                                      |  1 | IVA Responsable Inscripto   |
 * | a monotributo category, or tax 20 or 21           |  6 | Responsable Monotributo     |
 * | general data and no tax at all                    |  5 | Consumidor Final            |
 *
 * 33 is "NI" in the rule, a condition the table no longer has; the table's "not categorized"
 * (7) is the nearest and is valid for the same voucher classes (B/C). 34 → 15 is inferred
 * from the names (no published rule maps it). When a block that could decide is missing because the registry
 * withheld it (`errorRegimenGeneral`, `errorMonotributo`, `errorConstancia`, or no general
 * data at all), the condition is not guessed: null, and the caller chooses.
 */

export interface TaxView {
  readonly datosGenerales: unknown;
  readonly regimenGeneral: { readonly impuestos: readonly { readonly id: number }[] } | null;
  readonly monotributo: {
    readonly categoria: unknown;
    readonly impuestos: readonly { readonly id: number }[];
  } | null;
  readonly errorConstancia: unknown;
  readonly errorMonotributo: unknown;
  readonly errorRegimenGeneral: unknown;
}

export const CONDICION = {
  RESPONSABLE_INSCRIPTO: 1,
  EXENTO: 4,
  CONSUMIDOR_FINAL: 5,
  MONOTRIBUTO: 6,
  NO_CATEGORIZADO: 7,
  NO_ALCANZADO: 15,
} as const;

export function condicionIvaReceptorId(c: TaxView): number | null {
  const taxes = new Set([
    ...(c.regimenGeneral?.impuestos ?? []).map((t) => t.id),
    ...(c.monotributo?.impuestos ?? []).map((t) => t.id),
  ]);
  if (taxes.has(32)) return CONDICION.EXENTO;
  if (taxes.has(33)) return CONDICION.NO_CATEGORIZADO;
  if (taxes.has(34)) return CONDICION.NO_ALCANZADO;
  if (taxes.has(30)) return CONDICION.RESPONSABLE_INSCRIPTO;
  if (
    (c.monotributo !== null && c.monotributo.categoria !== null) ||
    taxes.has(20) ||
    taxes.has(21)
  ) {
    return CONDICION.MONOTRIBUTO;
  }
  const withheld =
    c.errorConstancia !== null || c.errorMonotributo !== null || c.errorRegimenGeneral !== null;
  if (withheld || c.datosGenerales === null) return null;
  return CONDICION.CONSUMIDOR_FINAL;
}
