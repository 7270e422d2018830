import type { wsfe } from "@pasarela/contracts";

type Tabla = wsfe.Tabla;

/** One row of an FEParamGet* list, each child element as text. */
export type AuthorityRow = Readonly<Record<string, string | undefined>>;

export interface ParametroItem {
  id: number | string;
  descripcion: string;
  vigenciaDesde?: string | null;
  vigenciaHasta?: string | null;
  claseComprobante?: string;
  bloqueado?: boolean;
  fechaBaja?: string | null;
}

/** What reading a row may depend on besides the row: the date at the authority. */
export interface ReadContext {
  /** today in Argentina, yyyymmdd, the authority's calendar */
  readonly today: string;
}

/** How one list table is read from the authority. */
export interface ListTable {
  readonly operation: string;
  /** the repeated element inside ResultGet */
  readonly row: string;
  /** the item for a row, or undefined for a row the table does not answer */
  readonly map: (row: AuthorityRow, context: ReadContext) => ParametroItem | undefined;
}

// The authority writes "NULL" for an open-ended date.
const date = (value: string | undefined): string | null =>
  value === undefined || value === "" || value.toUpperCase() === "NULL" ? null : value;

const intId = (value: string | undefined): number | undefined => {
  if (value === undefined || !/^-?\d+$/.test(value.trim())) return undefined;
  return Number(value);
};

const AR_OFFSET_MS = -3 * 3_600_000;

/** The calendar day in Argentina (UTC−3, no daylight saving) at `now`, as yyyymmdd. */
export function argentinaDate(now: Date): string {
  return new Date(now.getTime() + AR_OFFSET_MS).toISOString().slice(0, 10).replaceAll("-", "");
}

/**
 * `puntos-de-venta` answers the points enabled for web-service invoicing, while
 * FEParamGetPtosVenta also lists blocked (`Bloqueado` S) and withdrawn ones (`FchBaja`, a date
 * or "NULL"). A point is enabled when it is not blocked and has no withdrawal date, or one
 * still to come: on its `FchBaja` it is already withdrawn. A date that cannot be read is taken
 * as withdrawn, since the table must not offer a point the authority may refuse.
 */
export function isEnabledPointOfSale(row: AuthorityRow, today: string): boolean {
  if (row.Bloqueado?.trim().toUpperCase() === "S") return false;
  const baja = date(row.FchBaja?.trim());
  if (baja === null) return true;
  const day = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(baja);
  return day !== null && `${day[1]}${day[2]}${day[3]}` > today;
}

function dated(idOf: (row: AuthorityRow) => number | string | undefined) {
  return (row: AuthorityRow): ParametroItem | undefined => {
    const id = idOf(row);
    if (id === undefined) return undefined;
    return {
      id,
      descripcion: row.Desc ?? "",
      vigenciaDesde: date(row.FchDesde),
      vigenciaHasta: date(row.FchHasta),
    };
  };
}

// Ids keep the WSDL's type: int where it says int, the published text where it says string.
const stringId = (row: AuthorityRow) => row.Id?.trim() || undefined;

export const listTables: Readonly<Record<Exclude<Tabla, "cotizacion">, ListTable>> = {
  "tipos-comprobante": {
    operation: "FEParamGetTiposCbte",
    row: "CbteTipo",
    map: dated((row) => intId(row.Id)),
  },
  "tipos-documento": {
    operation: "FEParamGetTiposDoc",
    row: "DocTipo",
    map: dated((row) => intId(row.Id)),
  },
  "alicuotas-iva": { operation: "FEParamGetTiposIva", row: "IvaTipo", map: dated(stringId) },
  "tipos-opcional": {
    operation: "FEParamGetTiposOpcional",
    row: "OpcionalTipo",
    map: dated(stringId),
  },
  "condicion-iva-receptor": {
    operation: "FEParamGetCondicionIvaReceptor",
    row: "CondicionIvaReceptor",
    map: (row) => {
      const id = intId(row.Id);
      if (id === undefined) return undefined;
      return { id, descripcion: row.Desc ?? "", claseComprobante: row.Cmp_Clase ?? "" };
    },
  },
  "puntos-de-venta": {
    operation: "FEParamGetPtosVenta",
    row: "PtoVenta",
    map: (row, { today }) => {
      const id = intId(row.Nro);
      if (id === undefined || !isEnabledPointOfSale(row, today)) return undefined;
      return {
        id,
        descripcion: row.EmisionTipo ?? "",
        bloqueado: row.Bloqueado?.toUpperCase() === "S",
        fechaBaja: date(row.FchBaja),
      };
    },
  },
};

/** `cotizacion` without `moneda` quotes the US dollar, the common case. */
export const DEFAULT_MONEDA = "DOL";
