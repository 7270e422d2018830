import type { AccessTicket } from "../access-ticket-cache.js";
import { xmlChild, xmlElement, xmlString } from "../asmx-client.js";
import type { AsmxErr } from "../asmx-errors.js";
import { describeTransportFailure } from "../transport-failure.js";
import type { XmlObject, XmlValue } from "../xml-reader.js";
import type { WsfexCaller } from "./adapter.js";
import type { wsfex } from "@pasarela/contracts";
import { authorityQueryRefused, fail, ok, type AppError, type Result } from "@pasarela/errors";

/** The list tables: every export parameter table but `cotizacion`, which is one quote. */
export type FexListTabla = Exclude<wsfex.Tabla, "cotizacion">;

/**
 * One row of an FEXGetPARAM_* list in the shape every table shares. `id` has the type the
 * export voucher takes it in (a number for types, countries, units, languages and activities;
 * text for Incoterms, currencies, opcionales and the countries' CUITs). Dates are yyyymmdd and
 * an open end is null. Only the members the table has are present.
 */
export interface FexParametroItem {
  id: number | string;
  /** every table but puntos-de-venta, whose rows have no description */
  descripcion?: string;
  vigenciaDesde?: string | null;
  vigenciaHasta?: string | null;
  /** monedas-con-cotizacion: the quote as the authority printed it, and its day */
  cotizacion?: string;
  fecha?: string;
  /** actividades: the order the issuer registered them in */
  orden?: number;
  /** puntos-de-venta */
  bloqueado?: boolean;
  fechaBaja?: string | null;
}

export interface FexCotizacion {
  /** the authority's decimal text, never a float round-trip */
  readonly cotizacion: string;
  /** yyyymmdd */
  readonly fecha: string;
}

export interface WsfexParams {
  /**
   * An FEXGetPARAM_* list, normalised; an empty result is an empty list. `fecha` (yyyymmdd)
   * is the day monedas-con-cotizacion asks for, today in Argentina when absent.
   */
  parametros: (
    caller: WsfexCaller,
    tabla: FexListTabla,
    query?: { fecha?: string | undefined },
  ) => Promise<Result<FexParametroItem[]>>;
  /** FEXGetPARAM_Ctz: one currency's rate on `fecha` (yyyymmdd), today when absent. */
  cotizacion: (
    caller: WsfexCaller,
    query: { monedaId: string; fecha?: string | undefined },
  ) => Promise<Result<FexCotizacion>>;
}

/** How params.ts reaches the service: the adapter's ticketed call. */
export type WsfexRun = <T>(
  caller: WsfexCaller,
  operation: string,
  body: (ticket: AccessTicket) => string,
  read: (result: XmlObject, err: AsmxErr | undefined) => Result<T> | undefined,
) => Promise<Result<T>>;

/** One row, each child element as text. */
type Row = Readonly<Record<string, string | undefined>>;

const AR_OFFSET_MS = -3 * 3_600_000;

/** The calendar day in Argentina (UTC−3, no daylight saving) at `now`, as yyyymmdd. */
export function argentinaDate(now: Date): string {
  return new Date(now.getTime() + AR_OFFSET_MS).toISOString().slice(0, 10).replaceAll("-", "");
}

/**
 * A date as the service writes it, as yyyymmdd: yyyymmdd itself, ISO (with or without a
 * time), and the invariant M/d/yyyy that FEXGetPARAM_MON_CON_COTIZACION answers with. The
 * service's "NULL" and an empty element are no date (null); undefined when unreadable.
 */
export function fexDate(text: string | undefined): string | null | undefined {
  const value = text?.trim() ?? "";
  if (value === "" || value.toUpperCase() === "NULL") return null;
  const compact =
    /^(\d{4})(\d{2})(\d{2})$/.exec(value) ?? /^(\d{4})-(\d{2})-(\d{2})(?:T|$)/.exec(value);
  if (compact) return validDay(compact[1], compact[2], compact[3]);
  const invariant = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s|$)/.exec(value);
  if (invariant) return validDay(invariant[3], invariant[1], invariant[2]);
  return undefined;
}

function validDay(
  year: string | undefined,
  month: string | undefined,
  day: string | undefined,
): string | undefined {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    return undefined;
  }
  return `${String(y).padStart(4, "0")}${String(m).padStart(2, "0")}${String(d).padStart(2, "0")}`;
}

// validity dates pass through as sent when they are not a date the reader knows
const validity = (text: string | undefined): string | null => {
  const day = fexDate(text);
  return day === undefined ? (text?.trim() ?? null) : day;
};

const DECIMAL = /^\d+(?:\.\d+)?$/;
/** The authority's decimal text (trimmed), or undefined when it is not a plain decimal. */
const decimal = (text: string | undefined): string | undefined => {
  const value = text?.trim();
  return value !== undefined && DECIMAL.test(value) ? value : undefined;
};

const intOf = (text: string | undefined): number | undefined => {
  const value = text?.trim();
  if (value === undefined || !/^-?\d+$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
};

const textOf = (text: string | undefined): string | undefined => text?.trim() || undefined;

/**
 * The rows inside FEXResultGet: every element child, whatever its `ClsFEXResponse_*` name, so
 * a row type named otherwise in a newer WSDL is read all the same. `<FEXResultGet />` is none.
 */
function rowsOf(resultGet: XmlValue | undefined): Row[] {
  if (resultGet === undefined || typeof resultGet === "string" || Array.isArray(resultGet)) {
    return [];
  }
  const rows: Row[] = [];
  for (const value of Object.values(resultGet)) {
    for (const element of Array.isArray(value) ? value : [value]) {
      if (typeof element !== "object" || Array.isArray(element)) continue;
      const row: Record<string, string> = {};
      for (const [name, field] of Object.entries(element)) {
        if (typeof field === "string") row[name] = field;
      }
      rows.push(row);
    }
  }
  return rows;
}

interface ListTable {
  readonly operation: string;
  /** the item for a row, or undefined for a row without a readable id */
  readonly map: (row: Row) => FexParametroItem | undefined;
}

/** Rows of `<P>_Id`, `<P>_Ds`, `<P>_vig_desde`, `<P>_vig_hasta`. */
function vigencia(prefix: string, idOf: (text: string | undefined) => number | string | undefined) {
  return (row: Row): FexParametroItem | undefined => {
    const id = idOf(row[`${prefix}_Id`]);
    if (id === undefined) return undefined;
    return {
      id,
      descripcion: row[`${prefix}_Ds`] ?? "",
      vigenciaDesde: validity(row[`${prefix}_vig_desde`]),
      vigenciaHasta: validity(row[`${prefix}_vig_hasta`]),
    };
  };
}

const LIST_TABLES: Readonly<Record<FexListTabla, ListTable>> = {
  "tipos-comprobante": { operation: "FEXGetPARAM_Cbte_Tipo", map: vigencia("Cbte", intOf) },
  "tipos-exportacion": { operation: "FEXGetPARAM_Tipo_Expo", map: vigencia("Tex", intOf) },
  incoterms: { operation: "FEXGetPARAM_Incoterms", map: vigencia("Inc", textOf) },
  idiomas: { operation: "FEXGetPARAM_Idiomas", map: vigencia("Idi", intOf) },
  "unidades-medida": { operation: "FEXGetPARAM_UMed", map: vigencia("Umed", intOf) },
  paises: {
    operation: "FEXGetPARAM_DST_pais",
    map: (row) => {
      const id = intOf(row.DST_Codigo);
      return id === undefined ? undefined : { id, descripcion: row.DST_Ds ?? "" };
    },
  },
  // a CUIT is text everywhere in the gateway, Cuit_pais_cliente included
  "cuit-paises": {
    operation: "FEXGetPARAM_DST_CUIT",
    map: (row) => {
      const id = row.DST_CUIT?.trim();
      return id === undefined || !/^\d{11}$/.test(id)
        ? undefined
        : { id, descripcion: row.DST_Ds ?? "" };
    },
  },
  monedas: { operation: "FEXGetPARAM_MON", map: vigencia("Mon", textOf) },
  // a row without a quote or a day it is for answers nothing the voucher can use
  "monedas-con-cotizacion": {
    operation: "FEXGetPARAM_MON_CON_COTIZACION",
    map: (row) => {
      const id = textOf(row.Mon_Id);
      const cotizacion = decimal(row.Mon_ctz);
      const fecha = fexDate(row.Fecha_ctz);
      if (id === undefined || cotizacion === undefined || !fecha) return undefined;
      return { id, descripcion: row.Mon_Ds ?? "", cotizacion, fecha };
    },
  },
  "puntos-de-venta": {
    operation: "FEXGetPARAM_PtoVenta",
    map: (row) => {
      const id = intOf(row.Pve_Nro);
      if (id === undefined) return undefined;
      return {
        id,
        bloqueado: row.Pve_Bloqueado?.trim().toUpperCase() === "S",
        fechaBaja: validity(row.Pve_FchBaja),
      };
    },
  },
  opcionales: { operation: "FEXGetPARAM_Opcionales", map: vigencia("Opc", textOf) },
  actividades: {
    operation: "FEXGetPARAM_Actividades",
    map: (row) => {
      const id = intOf(row.Id);
      if (id === undefined) return undefined;
      const orden = intOf(row.Orden);
      return { id, descripcion: row.Desc ?? "", ...(orden === undefined ? {} : { orden }) };
    },
  },
};

const unreadable = (what: string): AppError =>
  describeTransportFailure("WSFEX", { kind: "unreadable", message: what });

/**
 * The two operations that take the caller's values (a currency, a day) answer a value they
 * refuse with 1014, the service's code for what it lists nowhere else: the caller's to fix,
 * with the authority's words, like WSFEv1's refusal of an unknown currency.
 */
const CALLER_REFUSED = 1014;
const refusedOrClassified = <T>(err: AsmxErr): Result<T> | undefined =>
  err.code === CALLER_REFUSED ? fail(authorityQueryRefused("wsfex", err)) : undefined;

/** The FEXGetPARAM_* operations over the adapter's call; `auth` is the `<Auth>` element. */
export function makeWsfexParams(
  run: WsfexRun,
  auth: (ticket: AccessTicket) => string,
): WsfexParams {
  return {
    parametros(caller, tabla, query) {
      const table = LIST_TABLES[tabla];
      const body =
        tabla === "monedas-con-cotizacion"
          ? (ticket: AccessTicket) =>
              `${auth(ticket)}${xmlElement("Fecha_CTZ", query?.fecha ?? argentinaDate(new Date()))}`
          : auth;
      return run<FexParametroItem[]>(caller, table.operation, body, (result, err) => {
        if (err) return tabla === "monedas-con-cotizacion" ? refusedOrClassified(err) : undefined;
        return ok(
          rowsOf(result.FEXResultGet)
            .map(table.map)
            .filter((item): item is FexParametroItem => item !== undefined),
        );
      });
    },
    cotizacion(caller, { monedaId, fecha }) {
      return run<FexCotizacion>(
        caller,
        "FEXGetPARAM_Ctz",
        // FchCotiz only when asked: without it the service quotes today, older versions too
        (ticket) =>
          `${auth(ticket)}${xmlElement("Mon_id", monedaId)}${fecha === undefined ? "" : xmlElement("FchCotiz", fecha)}`,
        (result, err) => {
          if (err) return refusedOrClassified(err);
          const resultGet = xmlChild(result, "FEXResultGet");
          const cotizacion = decimal(xmlString(resultGet, "Mon_ctz"));
          const day = fexDate(xmlString(resultGet, "Mon_fecha"));
          if (cotizacion === undefined || !day) {
            return fail(unreadable("FEXGetPARAM_Ctz sin Mon_ctz o Mon_fecha"));
          }
          return ok({ cotizacion, fecha: day });
        },
      );
    },
  };
}
