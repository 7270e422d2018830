import { NO_END, type ParamTable } from "../param-table.js";
import type { OpContext } from "../soap/service.js";
import { escapeXml, formatNumber } from "../soap/xml.js";
import { arDate, dayNumber } from "../time.js";
import { PAISES } from "../wsfex/tables.js";
import { MSG_NOT_FOUND, authenticate, errorsXml, isPair } from "./answer.js";
import { CONDICIONES_IVA, MONEDAS, cmpClase } from "./tables.js";
import type { CbteClass } from "./tables.js";

/** The FEParamGet operations: the authority's tables, points of sale, rates and activities. */

function paramList(tag: string, items: ParamTable): string {
  return `<ResultGet>${items
    .map(
      (i) =>
        `<${tag}><Id>${escapeXml(i.id)}</Id><Desc>${escapeXml(i.desc)}</Desc>` +
        `<FchDesde>${i.desde}</FchDesde><FchHasta>${NO_END}</FchHasta></${tag}>`,
    )
    .join("")}</ResultGet>`;
}

export function paramOp(tag: string, items: ParamTable) {
  return (ctx: OpContext): string => {
    const a = authenticate(ctx);
    if (isPair(a)) return errorsXml([a]);
    return paramList(tag, items);
  };
}

export function feParamGetPtosVenta(ctx: OpContext): string {
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  // blocked and withdrawn points are listed too, with their state
  const points = ctx.world.state.pointsOfSale
    .filter((p) => p.cuit === a.cuit && p.service === "wsfe")
    .sort((x, y) => x.ptoVta - y.ptoVta);
  if (points.length === 0) return errorsXml([{ code: 602, msg: MSG_NOT_FOUND }]);
  return `<ResultGet>${points
    .map(
      (p) =>
        `<PtoVenta><Nro>${p.ptoVta}</Nro><EmisionTipo>${p.emisionTipo ?? "CAE"} - Ri Iva</EmisionTipo>` +
        `<Bloqueado>${p.bloqueado === true ? "S" : "N"}</Bloqueado>` +
        `<FchBaja>${p.fchBaja ?? "NULL"}</FchBaja></PtoVenta>`,
    )
    .join("")}</ResultGet>`;
}

export function feParamGetCondicionIvaReceptor(ctx: OpContext): string {
  const clase = ctx.r.str(ctx.body, "ClaseCmp")?.trim() ?? "";
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  const map: Record<string, CbteClass> = { A: "A", B: "B", C: "C", ALEY: "M", M: "M", "49": "49" };
  const wanted = clase === "" ? undefined : map[clase.toUpperCase()];
  if (clase !== "" && wanted === undefined) {
    return errorsXml([
      {
        code: 10244,
        msg: "El campo ClaseCmp no es valido. Valores permitidos: A, B, C, ALEY o 49.",
      },
    ]);
  }
  const list = CONDICIONES_IVA.filter((c) => wanted === undefined || c.clases.includes(wanted));
  return `<ResultGet>${list
    .map(
      (c) =>
        `<CondicionIvaReceptor><Id>${c.id}</Id><Desc>${escapeXml(c.desc)}</Desc>` +
        `<Cmp_Clase>${cmpClase(c)}</Cmp_Clase></CondicionIvaReceptor>`,
    )
    .join("")}</ResultGet>`;
}

export function feParamGetCotizacion(ctx: OpContext): string {
  const monId = ctx.r.str(ctx.body, "MonId")?.trim() ?? "";
  const fch = ctx.r.str(ctx.body, "FchCotiz")?.trim() ?? "";
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  if (monId === "") return errorsXml([{ code: 12001, msg: "Campo MonId es obligatorio." }]);
  if (fch !== "" && dayNumber(fch) === undefined) {
    return errorsXml([{ code: 12002, msg: "Campo FchCotiz con formato invalido (yyyymmdd)." }]);
  }
  const cotiz = monId === "PES" ? 1 : ctx.world.state.cotizaciones[monId];
  if (cotiz === undefined || !MONEDAS.some((m) => m.id === monId)) {
    return errorsXml([
      {
        code: 12000,
        msg: "Campo MonId no se encuentra habilitado. Consultar metodo FEParamGetTiposMonedas.",
      },
    ]);
  }
  return (
    `<ResultGet><MonId>${escapeXml(monId)}</MonId><MonCotiz>${formatNumber(cotiz)}</MonCotiz>` +
    `<FchCotiz>${fch === "" ? arDate(ctx.now) : fch}</FchCotiz></ResultGet>`
  );
}

/** The Aduana country codes WSFEX also publishes (FEXGetPARAM_DST_pais), without dates. */
export function feParamGetTiposPaises(ctx: OpContext): string {
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  return `<ResultGet>${PAISES.map(
    (p) => `<PaisTipo><Id>${p.codigo}</Id><Desc>${escapeXml(p.desc)}</Desc></PaisTipo>`,
  ).join("")}</ResultGet>`;
}

/** The issuer's own activities, from the registry; 602 when it has none on record. */
export function feParamGetActividades(ctx: OpContext): string {
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  const actividades = ctx.world.state.persons[a.cuit]?.actividades ?? [];
  if (actividades.length === 0) return errorsXml([{ code: 602, msg: MSG_NOT_FOUND }]);
  return `<ResultGet>${[...actividades]
    .sort((x, y) => x.orden - y.orden)
    .map(
      (x) =>
        `<ActividadesTipo><Id>${x.id}</Id><Orden>${x.orden}</Orden>` +
        `<Desc>${escapeXml(x.desc)}</Desc></ActividadesTipo>`,
    )
    .join("")}</ResultGet>`;
}
