import { dummyResult } from "../soap/service.js";
import type { AsmxService, OpContext } from "../soap/service.js";
import { el } from "../soap/xml.js";
import { isPosEnabled } from "../state.js";
import type { FexVoucher } from "../state.js";
import { OK_TAIL, WSFEX_NS, authenticate, fexErr } from "./auth.js";
import { admitFex, fexAuthorize, seriesKey } from "./authorize.js";
import { PARAM_OPERATIONS } from "./params.js";

export { WSFEX_NS };

function fexGetLastCmp(ctx: OpContext): string {
  const auth = ctx.r.el(ctx.body, "Auth");
  const pto = ctx.r.int(auth, "Pto_venta") ?? 0;
  const tipo = ctx.r.int(auth, "Cbte_Tipo") ?? 0;
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  if (![19, 20, 21].includes(tipo)) {
    return fexErr(1606, "El campo Cbte_Tipo debe ser 19, 20 o 21.");
  }
  if (pto < 1 || pto > 99998 || !isPosEnabled(ctx.world.state, "wsfex", a.cuit, pto)) {
    return fexErr(
      1607,
      "El punto de venta informado no es valido o no es del tipo Comprobantes de Exportacion - Web Services (FEEWS).",
    );
  }
  const s = ctx.world.state.fex.series[seriesKey(a.cuit, pto, tipo)];
  return (
    `<FEXResult_LastCMP><Cbte_nro>${s?.last ?? 0}</Cbte_nro>` +
    `${el("Cbte_fecha", s?.lastFch ?? "")}</FEXResult_LastCMP>${OK_TAIL}`
  );
}

function fexGetLastId(ctx: OpContext): string {
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  return `<FEXResultGet><Id>${ctx.world.state.fex.lastId[a.cuit] ?? 0}</Id></FEXResultGet>${OK_TAIL}`;
}

function fexCheckPermiso(ctx: OpContext): string {
  const id = ctx.r.str(ctx.body, "ID_Permiso")?.trim() ?? "";
  const dst = ctx.r.int(ctx.body, "Dst_merc") ?? 0;
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  const denied = ctx.world.state.deniedPermits.includes(`${id}|${dst}`);
  return `<FEXResultGet><Status>${denied ? "NO" : "OK"}</Status></FEXResultGet>${OK_TAIL}`;
}

function cmpXml(v: FexVoucher): string {
  const f = (k: string): string => el(k, v.fields[k] ?? "");
  return (
    `<FEXResultGet><Id>${v.id}</Id>${f("Fecha_cbte")}<Cbte_tipo>${v.cbteTipo}</Cbte_tipo>` +
    `<Punto_vta>${v.puntoVta}</Punto_vta><Cbte_nro>${v.cbteNro}</Cbte_nro>` +
    `${f("Tipo_expo")}${f("Permiso_existente")}${v.permisosXml}${f("Dst_cmp")}${f("Cliente")}` +
    `${f("Cuit_pais_cliente")}${f("Domicilio_cliente")}${f("Id_impositivo")}${f("Moneda_Id")}` +
    `${f("Moneda_ctz")}${f("Obs_comerciales")}${f("Imp_total")}${f("Obs")}${v.cmpsAsocXml}` +
    `${f("Forma_pago")}${f("Incoterms")}${f("Incoterms_Ds")}${f("Idioma_cbte")}${v.itemsXml}` +
    `<Fecha_cbte_cae>${v.fechaCbte}</Fecha_cbte_cae><Fch_venc_Cae>${v.fchVencCae}</Fch_venc_Cae>` +
    `<Cae>${v.cae}</Cae><Resultado>A</Resultado><Motivos_Obs />${v.opcionalesXml}` +
    `${f("Fecha_pago")}</FEXResultGet>`
  );
}

function fexGetCmp(ctx: OpContext): string {
  const cmp = ctx.r.el(ctx.body, "Cmp");
  const tipo = ctx.r.int(cmp, "Cbte_tipo") ?? 0;
  const pto = ctx.r.int(cmp, "Punto_vta") ?? 0;
  const nro = ctx.r.int(cmp, "Cbte_nro") ?? 0;
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  const v = ctx.world.state.fex.vouchers[`${seriesKey(a.cuit, pto, tipo)}|${nro}`];
  if (v === undefined) {
    return (
      `<FEXResultGet><Id>0</Id><Cbte_tipo>0</Cbte_tipo><Punto_vta>0</Punto_vta>` +
      `<Cbte_nro>0</Cbte_nro><Tipo_expo>0</Tipo_expo><Dst_cmp>0</Dst_cmp>` +
      `<Cuit_pais_cliente>0</Cuit_pais_cliente><Moneda_ctz>0</Moneda_ctz><Imp_total>0</Imp_total>` +
      `<Idioma_cbte>0</Idioma_cbte></FEXResultGet>${fexErr(1020, "Comprobante inexistente")}`
    );
  }
  return `${cmpXml(v)}${OK_TAIL}`;
}

export const wsfexService: AsmxService = {
  ns: WSFEX_NS,
  header: {
    ambiente: { homologacion: "Homologacion-Ext - srext", produccion: "Produccion - srext" },
    id: "5.0.1.0",
  },
  operations: {
    FEXDummy: () => dummyResult("OK"),
    FEXGetLast_CMP: fexGetLastCmp,
    FEXGetLast_ID: fexGetLastId,
    FEXCheck_Permiso: fexCheckPermiso,
    FEXGetCMP: fexGetCmp,
    FEXAuthorize: fexAuthorize,
    ...PARAM_OPERATIONS,
  },
  admit: admitFex,
  errorResult(op, code, msg) {
    return op === "FEXDummy" ? dummyResult("ERROR") : fexErr(code, msg);
  },
};
