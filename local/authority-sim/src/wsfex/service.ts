import { newCae } from "../cae.js";
import { dummyResult } from "../soap/service.js";
import type { AsmxService, OpContext } from "../soap/service.js";
import { el, formatNumber, listXml } from "../soap/xml.js";
import { isPosEnabled } from "../state.js";
import type { FexVoucher } from "../state.js";
import { arDate, dayNumber } from "../time.js";
import { OK_TAIL, authenticate, fexErr } from "./auth.js";
import { PARAM_OPERATIONS } from "./params.js";

export const WSFEX_NS = "http://ar.gov.afip.dif.fexv1/";

const seriesKey = (cuit: string, pto: number, tipo: number): string => `${cuit}|${pto}|${tipo}`;

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

const STRING_FIELDS = [
  "Fecha_cbte",
  "Permiso_existente",
  "Cliente",
  "Domicilio_cliente",
  "Id_impositivo",
  "Moneda_Id",
  "Obs_comerciales",
  "Obs",
  "Forma_pago",
  "Incoterms",
  "Incoterms_Ds",
  "Fecha_pago",
] as const;

function fexAuthorize(ctx: OpContext): string {
  const { r, world } = ctx;
  const cmp = r.el(ctx.body, "Cmp");
  const id = r.int(cmp, "Id") ?? 0;
  const tipo = r.int(cmp, "Cbte_Tipo") ?? 0;
  const pto = r.int(cmp, "Punto_vta") ?? 0;
  const nro = r.int(cmp, "Cbte_nro") ?? 0;
  const fields: Record<string, string> = {};
  for (const k of STRING_FIELDS) fields[k] = r.str(cmp, k)?.trim() ?? "";
  for (const k of ["Tipo_expo", "Dst_cmp", "Idioma_cbte", "Cuit_pais_cliente"]) {
    const v = r.int(cmp, k);
    fields[k] = v === undefined ? "" : String(v);
  }
  const monedaCtz = r.num(cmp, "Moneda_ctz");
  const impTotal = r.num(cmp, "Imp_total") ?? 0;
  fields["Moneda_ctz"] = monedaCtz === undefined ? "" : formatNumber(monedaCtz);
  fields["Imp_total"] = formatNumber(impTotal);
  const items = r.all(r.el(cmp, "Items"), "Item").map((it) => ({
    codigo: r.str(it, "Pro_codigo") ?? "",
    ds: r.str(it, "Pro_ds") ?? "",
    qty: r.num(it, "Pro_qty") ?? 0,
    umed: r.int(it, "Pro_umed") ?? 0,
    precio: r.num(it, "Pro_precio_uni") ?? 0,
    bonif: r.num(it, "Pro_bonificacion") ?? 0,
    total: r.num(it, "Pro_total_item") ?? 0,
  }));
  const permisos = r.all(r.el(cmp, "Permisos"), "Permiso").map((p) => ({
    id: r.str(p, "Id_permiso") ?? "",
    dst: r.int(p, "Dst_merc") ?? 0,
  }));
  const asoc = r.all(r.el(cmp, "Cmps_asoc"), "Cmp_asoc").map((c) => ({
    tipo: r.int(c, "Cbte_tipo") ?? 0,
    pto: r.int(c, "Cbte_punto_vta") ?? 0,
    nro: r.int(c, "Cbte_nro") ?? 0,
    cuit: r.int(c, "Cbte_cuit") ?? 0,
  }));
  const opcionales = r.all(r.el(cmp, "Opcionales"), "Opcional").map((o) => ({
    id: r.str(o, "Id") ?? "",
    valor: r.str(o, "Valor") ?? "",
  }));
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  const cuit = a.cuit;
  type Outcome = Pick<
    FexVoucher,
    "cbteTipo" | "puntoVta" | "cbteNro" | "cae" | "fchVencCae" | "fechaCbte"
  >;
  const resultAuth = (o: Outcome, resultado: "A" | "R", reproceso: "S" | "N"): string =>
    `<FEXResultAuth><Id>${id}</Id><Cuit>${cuit}</Cuit><Cbte_tipo>${o.cbteTipo}</Cbte_tipo>` +
    `<Punto_vta>${o.puntoVta}</Punto_vta><Cbte_nro>${o.cbteNro}</Cbte_nro>${el("Cae", o.cae)}` +
    `${el("Fch_venc_Cae", o.fchVencCae)}${el("Fch_cbte", o.fechaCbte)}` +
    `<Resultado>${resultado}</Resultado><Reproceso>${reproceso}</Reproceso><Motivos_Obs />` +
    `</FEXResultAuth>`;
  const reject = (code: number, msg: string): string =>
    resultAuth(
      {
        cbteTipo: tipo,
        puntoVta: pto,
        cbteNro: nro,
        cae: "",
        fchVencCae: "",
        fechaCbte: fields["Fecha_cbte"] ?? "",
      },
      "R",
      "N",
    ) + fexErr(code, msg);

  // The same Id again answers what it was authorized with, whatever this request says.
  const existingKey = world.state.fex.byId[`${cuit}|${id}`];
  const existing = existingKey === undefined ? undefined : world.state.fex.vouchers[existingKey];
  if (existing !== undefined) return resultAuth(existing, "A", "S") + OK_TAIL;
  if (id < 0) return reject(1014, "El campo Id debe ser mayor o igual a 0.");
  const today = arDate(ctx.now);
  const fch = fields["Fecha_cbte"] === "" ? today : (fields["Fecha_cbte"] ?? today);
  const fchDay = dayNumber(fch);
  const todayDay = dayNumber(today) ?? 0;
  if (fchDay === undefined || fchDay < todayDay - 5 || fchDay > todayDay + 5) {
    return reject(
      1500,
      "El campo Fecha_cbte debe ser nulo o estar comprendido en el rango N-5 y N+5 siendo N la fecha de envio.",
    );
  }
  if (pto < 1 || pto > 99998 || !isPosEnabled(world.state, "wsfex", cuit, pto)) {
    return reject(
      1510,
      "El campo Punto_vta debe estar comprendido entre 1 y 99998 y ser del tipo Comprobantes de Exportacion - Web Services (FEEWS).",
    );
  }
  if (nro < 1 || nro > 99999999)
    return reject(1520, "El campo Cbte_nro debe estar comprendido entre 1 y 99999999.");
  if (![19, 20, 21].includes(tipo)) return reject(1530, "El campo Cbte_Tipo debe ser 19, 20 o 21.");
  const key = seriesKey(cuit, pto, tipo);
  const series = world.state.fex.series[key] ?? { last: 0, lastFch: "" };
  if (nro !== series.last + 1) {
    return reject(
      1535,
      "El numero de comprobante informado no es el proximo a autorizar. Consultar metodo FEXGetLast_CMP.",
    );
  }
  if (!["1", "2", "4"].includes(fields["Tipo_expo"] ?? "")) {
    return reject(1540, "El campo Tipo_expo debe ser 1, 2 o 4.");
  }
  const sumItems = items.reduce((s, it) => s + it.total, 0);
  if (items.length === 0 || Math.abs(sumItems - impTotal) > 0.01) {
    return reject(
      1610,
      "El campo Imp_total debe ser igual a la suma de los Pro_total_item de los items.",
    );
  }
  world.state.fex.lastId[cuit] = Math.max(world.state.fex.lastId[cuit] ?? 0, id);
  const v: FexVoucher = {
    id,
    cuit,
    cbteTipo: tipo,
    puntoVta: pto,
    cbteNro: nro,
    fechaCbte: fch,
    cae: newCae(),
    // Observed in homologation: Fch_venc_Cae equal to the voucher date.
    fchVencCae: fch,
    fields,
    itemsXml: listXml(
      "Items",
      items,
      (it) =>
        `<Item>${el("Pro_codigo", it.codigo)}${el("Pro_ds", it.ds)}<Pro_qty>${formatNumber(it.qty)}</Pro_qty>` +
        `<Pro_umed>${it.umed}</Pro_umed><Pro_precio_uni>${formatNumber(it.precio)}</Pro_precio_uni>` +
        `<Pro_bonificacion>${formatNumber(it.bonif)}</Pro_bonificacion>` +
        `<Pro_total_item>${formatNumber(it.total)}</Pro_total_item></Item>`,
    ),
    permisosXml: listXml(
      "Permisos",
      permisos,
      (p) => `<Permiso>${el("Id_permiso", p.id)}<Dst_merc>${p.dst}</Dst_merc></Permiso>`,
    ),
    cmpsAsocXml: listXml(
      "Cmps_asoc",
      asoc,
      (c) =>
        `<Cmp_asoc><Cbte_tipo>${c.tipo}</Cbte_tipo><Cbte_punto_vta>${c.pto}</Cbte_punto_vta>` +
        `<Cbte_nro>${c.nro}</Cbte_nro><Cbte_cuit>${c.cuit}</Cbte_cuit></Cmp_asoc>`,
    ),
    opcionalesXml: listXml(
      "Opcionales",
      opcionales,
      (o) => `<Opcional>${el("Id", o.id)}${el("Valor", o.valor)}</Opcional>`,
    ),
  };
  const vKey = `${key}|${nro}`;
  world.state.fex.vouchers[vKey] = v;
  world.state.fex.byId[`${cuit}|${id}`] = vKey;
  world.state.fex.series[key] = { last: nro, lastFch: fch };
  world.commit();
  return resultAuth(v, "A", "N") + OK_TAIL;
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
  errorResult(op, code, msg) {
    return op === "FEXDummy" ? dummyResult("ERROR") : fexErr(code, msg);
  },
};
