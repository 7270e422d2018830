import { NO_END, type ParamTable } from "../param-table.js";
import type { OpContext } from "../soap/service.js";
import { escapeXml } from "../soap/xml.js";
import { MONEDAS } from "../wsfe/tables.js";
import { arDate, dayNumber } from "../time.js";
import { OK_TAIL, authenticate, fexErr } from "./auth.js";
import {
  CBTE_TIPOS,
  CUITS_PAIS,
  IDIOMAS,
  INCOTERMS,
  OPCIONALES,
  PAISES,
  TIPOS_EXPO,
  UNIDADES,
} from "./tables.js";

/**
 * The FEXGetPARAM_* operations. Each answers `FEXResultGet` holding one
 * `ClsFEXResponse_<x>` per row, then FEXErr/FEXEvents; a token problem answers FEXErr alone.
 * Error codes of these operations were never recorded: a bad parameter answers 1014, the
 * manual's catch-all for unlisted errors.
 */
type Operation = (ctx: OpContext) => string;

const row = (cls: string, fields: readonly (readonly [string, string])[]): string =>
  `<${cls}>${fields.map(([k, v]) => (v === "" ? `<${k} />` : `<${k}>${escapeXml(v)}</${k}>`)).join("")}</${cls}>`;

const resultGet = (rows: readonly string[]): string =>
  rows.length === 0 ? "<FEXResultGet />" : `<FEXResultGet>${rows.join("")}</FEXResultGet>`;

/** A table whose rows are `<P>_Id`, `<P>_Ds`, `<P>_vig_desde`, `<P>_vig_hasta` (open: NO_END). */
function vigenciaTable(cls: string, prefix: string, rows: ParamTable): Operation {
  return (ctx) => {
    const a = authenticate(ctx);
    if ("err" in a) return a.err;
    return (
      resultGet(
        rows.map((r) =>
          row(cls, [
            [`${prefix}_Id`, r.id],
            [`${prefix}_Ds`, r.desc],
            [`${prefix}_vig_desde`, r.desde],
            [`${prefix}_vig_hasta`, NO_END],
          ]),
        ),
      ) + OK_TAIL
    );
  };
}

function dstPais(ctx: OpContext): string {
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  return (
    resultGet(
      PAISES.map((p) =>
        row("ClsFEXResponse_DST_pais", [
          ["DST_Codigo", p.codigo],
          ["DST_Ds", p.desc],
        ]),
      ),
    ) + OK_TAIL
  );
}

function dstCuit(ctx: OpContext): string {
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  return (
    resultGet(
      CUITS_PAIS.map((c) =>
        row("ClsFEXResponse_DST_cuit", [
          ["DST_CUIT", c.cuit],
          ["DST_Ds", c.desc],
        ]),
      ),
    ) + OK_TAIL
  );
}

/** `.NET` decimal with the scale the authority stores quotes with: `101.2020`. */
const ctz = (value: number): string => value.toFixed(4);

/** `7/21/2021`: MON_CON_COTIZACION writes its date in the invariant M/d/yyyy, as recorded. */
function monthDayYear(yyyymmdd: string): string {
  return `${Number(yyyymmdd.slice(4, 6))}/${Number(yyyymmdd.slice(6, 8))}/${yyyymmdd.slice(0, 4)}`;
}

/** A yyyymmdd date parameter: the given day, today when absent, undefined when unreadable. */
function dateParam(ctx: OpContext, name: string): string | undefined {
  const raw = ctx.r.str(ctx.body, name)?.trim() ?? "";
  if (raw === "") return arDate(ctx.now);
  return dayNumber(raw) === undefined ? undefined : raw;
}

/** The currencies quoted today, in the authority's order (by id); PES has no quote. */
function quoted(ctx: OpContext): { id: string; cotiz: number }[] {
  const known = new Set(MONEDAS.map((m) => m.id));
  return Object.entries(ctx.world.state.cotizaciones)
    .filter(([id]) => id !== "PES" && known.has(id))
    .map(([id, cotiz]) => ({ id, cotiz }))
    .sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

/**
 * The quotes in force on `Fecha_CTZ`. Recorded traffic: asked for tomorrow, the service
 * answered today's quotes dated today, and left `Mon_Ds` out although the WSDL allows it.
 */
function monConCotizacion(ctx: OpContext): string {
  const fecha = dateParam(ctx, "Fecha_CTZ");
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  if (fecha === undefined) {
    return fexErr(1014, "El campo Fecha_CTZ debe informarse con formato yyyymmdd.");
  }
  const today = arDate(ctx.now);
  const day = monthDayYear(fecha > today ? today : fecha);
  return (
    resultGet(
      quoted(ctx).map((q) =>
        row("ClsFEXResponse_Mon_CON_Cotizacion", [
          ["Mon_Id", q.id],
          ["Mon_ctz", ctz(q.cotiz)],
          ["Fecha_ctz", day],
        ]),
      ),
    ) + OK_TAIL
  );
}

/** One currency's quote; `FchCotiz` is the newer optional date, today by default. */
function paramCtz(ctx: OpContext): string {
  const monId = ctx.r.str(ctx.body, "Mon_id")?.trim() ?? "";
  const fecha = dateParam(ctx, "FchCotiz");
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  if (fecha === undefined) {
    return fexErr(1014, "El campo FchCotiz debe informarse con formato yyyymmdd.");
  }
  const cotiz = monId === "PES" ? 1 : ctx.world.state.cotizaciones[monId];
  if (cotiz === undefined || !MONEDAS.some((m) => m.id === monId)) {
    return fexErr(
      1014,
      `El campo Mon_id (${monId}) no es una moneda con cotizacion. Consultar metodo FEXGetPARAM_MON_CON_COTIZACION.`,
    );
  }
  const today = arDate(ctx.now);
  return (
    `<FEXResultGet><Mon_ctz>${ctz(cotiz)}</Mon_ctz>` +
    `<Mon_fecha>${fecha > today ? today : fecha}</Mon_fecha></FEXResultGet>${OK_TAIL}`
  );
}

/** The CUIT's export points of sale enabled at the authority; none is an empty result. */
function ptoVenta(ctx: OpContext): string {
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  const points = ctx.world.state.pointsOfSale
    .filter((p) => p.cuit === a.cuit && p.service === "wsfex")
    .map((p) => p.ptoVta)
    .sort((x, y) => x - y);
  return (
    resultGet(
      points.map((n) =>
        row("ClsFEXResponse_PtoVenta", [
          ["Pve_Nro", String(n)],
          ["Pve_Bloqueado", "N"],
          ["Pve_FchBaja", "NULL"],
        ]),
      ),
    ) + OK_TAIL
  );
}

/**
 * The issuer's own activities, from the registry, in their order. Like the points of sale,
 * none on record is an empty result rather than an error.
 */
function actividades(ctx: OpContext): string {
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  const own = [...(ctx.world.state.persons[a.cuit]?.actividades ?? [])].sort(
    (x, y) => x.orden - y.orden,
  );
  return (
    resultGet(
      own.map((x) =>
        row("ClsFEXResponse_Act", [
          ["Id", String(x.id)],
          ["Orden", String(x.orden)],
          ["Desc", x.desc],
        ]),
      ),
    ) + OK_TAIL
  );
}

export const PARAM_OPERATIONS: Readonly<Record<string, Operation>> = {
  FEXGetPARAM_Cbte_Tipo: vigenciaTable("ClsFEXResponse_Cbte_Tipo", "Cbte", CBTE_TIPOS),
  FEXGetPARAM_Tipo_Expo: vigenciaTable("ClsFEXResponse_Tex", "Tex", TIPOS_EXPO),
  FEXGetPARAM_Incoterms: vigenciaTable("ClsFEXResponse_Inc", "Inc", INCOTERMS),
  FEXGetPARAM_Idiomas: vigenciaTable("ClsFEXResponse_Idi", "Idi", IDIOMAS),
  FEXGetPARAM_UMed: vigenciaTable("ClsFEXResponse_UMed", "Umed", UNIDADES),
  FEXGetPARAM_DST_pais: dstPais,
  FEXGetPARAM_DST_CUIT: dstCuit,
  FEXGetPARAM_MON: vigenciaTable("ClsFEXResponse_Mon", "Mon", MONEDAS),
  FEXGetPARAM_MON_CON_COTIZACION: monConCotizacion,
  FEXGetPARAM_Ctz: paramCtz,
  FEXGetPARAM_PtoVenta: ptoVenta,
  FEXGetPARAM_Opcionales: vigenciaTable("ClsFEXResponse_Opc", "Opc", OPCIONALES),
  FEXGetPARAM_Actividades: actividades,
};
