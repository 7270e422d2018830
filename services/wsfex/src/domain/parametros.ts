/** What a points-of-sale row says about whether it may be used. */
export interface PointOfSaleState {
  readonly bloqueado?: boolean | undefined;
  /** yyyymmdd, or null when none */
  readonly fechaBaja?: string | null | undefined;
}

/**
 * `puntos-de-venta` answers the points enabled for export web-service invoicing, while
 * FEXGetPARAM_PtoVenta also lists blocked (`Pve_Bloqueado` S) and withdrawn ones
 * (`Pve_FchBaja`). A point is enabled when it is not blocked and has no withdrawal date, or one
 * still to come: on its withdrawal day it is already withdrawn. A date the reader could not
 * make a yyyymmdd of counts as withdrawn, since the table must not offer a point the authority
 * may refuse.
 */
export function isEnabledPointOfSale(item: PointOfSaleState, today: string): boolean {
  if (item.bloqueado === true) return false;
  const baja = item.fechaBaja ?? null;
  if (baja === null) return true;
  return /^\d{8}$/.test(baja) && baja > today;
}
