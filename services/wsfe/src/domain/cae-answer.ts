/**
 * What FECAESolicitar answers, as data; what it is sent is the domain's `FECAEDetRequest`.
 */

/** One `Obs`, `Err` or `Evt` of an answer: the authority's code and text. */
export interface AuthorityMessage {
  readonly code: number;
  readonly msg: string;
}

/** One `FECAEDetResponse`: the authority's verdict on one detail. */
export interface CaeDetalleRespuesta {
  readonly cbteDesde: number;
  readonly cbteHasta: number;
  readonly cbteFch: string;
  /** A or R */
  readonly resultado: string;
  /** empty on a rejection (`<CAE />`) */
  readonly cae: string;
  readonly caeFchVto: string;
  readonly observaciones: readonly AuthorityMessage[];
}
