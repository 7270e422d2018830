/**
 * What goes to FECAESolicitar and what comes back, as data (authority-ws.md §3.3, §3.4). The
 * field names follow the WSDL's, in camelCase; amounts are decimal text, never binary floats,
 * so what is stored is exactly what was sent.
 */

/** One `Obs`, `Err` or `Evt` of an answer: the authority's code and text. */
export interface AuthorityMessage {
  readonly code: number;
  readonly msg: string;
}

/** A `FECAEDetRequest` as sent, number included; optional elements are omitted when absent. */
export interface CaeDetalle {
  readonly concepto: number;
  readonly docTipo: number;
  /** digits: an 11-digit CUIT does not need a float, and 0 for the anonymous consumer */
  readonly docNro: string;
  readonly cbteDesde: number;
  readonly cbteHasta: number;
  readonly cbteFch: string;
  readonly impTotal: string;
  readonly impTotConc: string;
  readonly impNeto: string;
  readonly impOpEx: string;
  readonly impTrib: string;
  readonly impIVA: string;
  readonly fchServDesde?: string | undefined;
  readonly fchServHasta?: string | undefined;
  readonly fchVtoPago?: string | undefined;
  readonly monId: string;
  readonly monCotiz: string;
  readonly canMisMonExt?: "S" | "N" | undefined;
  readonly condicionIvaReceptorId: number;
  readonly cbtesAsoc?:
    | readonly {
        readonly tipo: number;
        readonly ptoVta: number;
        readonly nro: number;
        readonly cuit?: string | undefined;
        readonly cbteFch?: string | undefined;
      }[]
    | undefined;
  readonly tributos?:
    | readonly {
        readonly id: number;
        readonly desc?: string | undefined;
        readonly baseImp: string;
        readonly alic: string;
        readonly importe: string;
      }[]
    | undefined;
  readonly iva?:
    | readonly { readonly id: number; readonly baseImp: string; readonly importe: string }[]
    | undefined;
  readonly opcionales?: readonly { readonly id: string; readonly valor: string }[] | undefined;
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
