import type { OpContext } from "../soap/service.js";
import { el, formatNumber, listXml } from "../soap/xml.js";
import { isPosEnabled } from "../state.js";
import type { FeVoucher } from "../state.js";
import {
  MAX_REG_X_REQ,
  MSG_NOT_FOUND,
  authenticate,
  errorsXml,
  isPair,
  obsXml,
  seriesKey,
  totXRequestErrors,
  ultimoErrors,
} from "./answer.js";
import { cbteClass } from "./tables.js";

/** The operations that read what was issued: the last number, one voucher, the batch size. */

export function feCompUltimoAutorizado(ctx: OpContext): string {
  const ptoVta = ctx.r.int(ctx.body, "PtoVta") ?? 0;
  const cbteTipo = ctx.r.int(ctx.body, "CbteTipo") ?? 0;
  const a = authenticate(ctx);
  if (isPair(a)) return ultimoErrors([a]);
  if (ptoVta < 1 || ptoVta > 99998) {
    return ultimoErrors([
      { code: 11000, msg: "Campo PtoVta debe estar comprendido entre 1 y 99998." },
    ]);
  }
  if (cbteClass(cbteTipo) === undefined) {
    return ultimoErrors([
      { code: 11001, msg: "Campo CbteTipo invalido. Consultar metodo FEParamGetTiposCbte." },
    ]);
  }
  if (!isPosEnabled(ctx.world.state, "wsfe", a.cuit, ptoVta)) {
    return ultimoErrors([
      {
        code: 11002,
        msg: "El punto de venta no se encuentra habilitado a usar en el presente WS. Consultar metodo FEParamGetPtosVenta.",
      },
    ]);
  }
  const last = ctx.world.state.fe[seriesKey(a.cuit, ptoVta, cbteTipo)]?.last ?? 0;
  return `<PtoVta>${ptoVta}</PtoVta><CbteTipo>${cbteTipo}</CbteTipo><CbteNro>${last}</CbteNro>`;
}

/**
 * FECompConsultar's ResultGet: the request as sent (a B-class range with its own bounds, the
 * same for each of its numbers), then the answer it got, observations included.
 */
function voucherXml(v: FeVoucher, ptoVta: number, cbteTipo: number): string {
  return (
    `<ResultGet><Concepto>${v.concepto}</Concepto><DocTipo>${v.docTipo}</DocTipo>` +
    `<DocNro>${v.docNro}</DocNro><CbteDesde>${v.cbteDesde}</CbteDesde><CbteHasta>${v.cbteHasta}</CbteHasta>` +
    `<CbteFch>${v.cbteFch}</CbteFch><ImpTotal>${formatNumber(v.impTotal)}</ImpTotal>` +
    `<ImpTotConc>${formatNumber(v.impTotConc)}</ImpTotConc><ImpNeto>${formatNumber(v.impNeto)}</ImpNeto>` +
    `<ImpOpEx>${formatNumber(v.impOpEx)}</ImpOpEx><ImpTrib>${formatNumber(v.impTrib)}</ImpTrib>` +
    `<ImpIVA>${formatNumber(v.impIva)}</ImpIVA>${el("FchServDesde", v.fchServDesde)}` +
    `${el("FchServHasta", v.fchServHasta)}${el("FchVtoPago", v.fchVtoPago)}${el("MonId", v.monId)}` +
    `<MonCotiz>${formatNumber(v.monCotiz)}</MonCotiz>` +
    (v.canMisMonExt === "" ? "" : el("CanMisMonExt", v.canMisMonExt)) +
    (v.condicionIvaReceptorId === null
      ? ""
      : `<CondicionIVAReceptorId>${v.condicionIvaReceptorId}</CondicionIVAReceptorId>`) +
    listXml(
      "CbtesAsoc",
      v.cbtesAsoc,
      (c) =>
        `<CbteAsoc><Tipo>${c.tipo}</Tipo><PtoVta>${c.ptoVta}</PtoVta><Nro>${c.nro}</Nro>` +
        (c.cuit === "" ? "" : el("Cuit", c.cuit)) +
        (c.cbteFch === "" ? "" : el("CbteFch", c.cbteFch)) +
        `</CbteAsoc>`,
    ) +
    listXml(
      "Tributos",
      v.tributos,
      (t) =>
        `<Tributo><Id>${t.id}</Id>${el("Desc", t.desc)}<BaseImp>${formatNumber(t.baseImp)}</BaseImp>` +
        `<Alic>${formatNumber(t.alic)}</Alic><Importe>${formatNumber(t.importe)}</Importe></Tributo>`,
    ) +
    listXml(
      "Iva",
      v.iva,
      (i) =>
        `<AlicIva><Id>${i.id}</Id><BaseImp>${formatNumber(i.baseImp)}</BaseImp>` +
        `<Importe>${formatNumber(i.importe)}</Importe></AlicIva>`,
    ) +
    listXml(
      "Opcionales",
      v.opcionales,
      (o) => `<Opcional>${el("Id", o.id)}${el("Valor", o.valor)}</Opcional>`,
    ) +
    listXml(
      "Compradores",
      v.compradores,
      (c) =>
        `<Comprador><DocTipo>${c.docTipo}</DocTipo><DocNro>${c.docNro}</DocNro>` +
        `<Porcentaje>${formatNumber(c.porcentaje)}</Porcentaje></Comprador>`,
    ) +
    (v.periodoAsoc === null
      ? ""
      : `<PeriodoAsoc>${el("FchDesde", v.periodoAsoc.fchDesde)}${el("FchHasta", v.periodoAsoc.fchHasta)}</PeriodoAsoc>`) +
    listXml("Actividades", v.actividades, (id) => `<Actividad><Id>${id}</Id></Actividad>`) +
    `<Resultado>${v.resultado}</Resultado><CodAutorizacion>${v.cae}</CodAutorizacion>` +
    `<EmisionTipo>${v.emisionTipo ?? "CAE"}</EmisionTipo><FchVto>${v.caeFchVto}</FchVto>` +
    `<FchProceso>${v.fchProceso}</FchProceso>${obsXml(v.observaciones)}` +
    `<PtoVta>${ptoVta}</PtoVta><CbteTipo>${cbteTipo}</CbteTipo></ResultGet>`
  );
}

export function feCompConsultar(ctx: OpContext): string {
  const req = ctx.r.el(ctx.body, "FeCompConsReq");
  const cbteTipo = ctx.r.int(req, "CbteTipo") ?? 0;
  const cbteNro = ctx.r.int(req, "CbteNro") ?? 0;
  const ptoVta = ctx.r.int(req, "PtoVta") ?? 0;
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  if (ptoVta < 1 || ptoVta > 99998) {
    return errorsXml([{ code: 10200, msg: "Campo PtoVta invalido." }]);
  }
  if (cbteClass(cbteTipo) === undefined) {
    return errorsXml([{ code: 10201, msg: "Campo CbteTipo invalido." }]);
  }
  if (cbteNro < 1 || cbteNro > 99999999) {
    return errorsXml([{ code: 10202, msg: "Campo CbteNro invalido." }]);
  }
  const v = ctx.world.state.fe[seriesKey(a.cuit, ptoVta, cbteTipo)]?.vouchers[String(cbteNro)];
  if (v === undefined) return errorsXml([{ code: 602, msg: MSG_NOT_FOUND }]);
  return voucherXml(v, ptoVta, cbteTipo);
}

export function feCompTotXRequest(ctx: OpContext): string {
  const a = authenticate(ctx);
  if (isPair(a)) return totXRequestErrors([a]);
  return `<RegXReq>${MAX_REG_X_REQ}</RegXReq>`;
}
