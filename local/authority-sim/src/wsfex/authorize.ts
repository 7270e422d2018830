import { newCae } from "../cae.js";
import { RequestReadError, fieldReader } from "../soap/asmx.js";
import type { Admission, OpContext } from "../soap/service.js";
import { el, formatNumber, listXml } from "../soap/xml.js";
import type { XmlElement } from "../soap/xml.js";
import type { EnvState, FexVoucher } from "../state.js";
import { arDate } from "../time.js";
import type { World } from "../world.js";
import { OK_TAIL, WSFEX_NS, authenticate, fexErr } from "./auth.js";
import { readFexRequest } from "./request.js";
import type { FexRequest } from "./request.js";
import { officialQuote } from "./rule.js";
import { judgeFex } from "./validate.js";

export const seriesKey = (cuit: string, pto: number, tipo: number): string =>
  `${cuit}|${pto}|${tipo}`;

/** The idempotency key: an Id is the issuer's own, another CUIT may use the same number. */
const idKey = (cuit: string, id: number): string => `${cuit}|${id}`;

type Outcome = Pick<
  FexVoucher,
  "id" | "cbteTipo" | "puntoVta" | "cbteNro" | "cae" | "fchVencCae" | "fechaCbte"
>;

const resultAuth = (cuit: string, o: Outcome, reproceso: "S" | "N"): string =>
  `<FEXResultAuth><Id>${o.id}</Id><Cuit>${cuit}</Cuit><Cbte_tipo>${o.cbteTipo}</Cbte_tipo>` +
  `<Punto_vta>${o.puntoVta}</Punto_vta><Cbte_nro>${o.cbteNro}</Cbte_nro>${el("Cae", o.cae)}` +
  `${el("Fch_venc_Cae", o.fchVencCae)}${el("Fch_cbte", o.fechaCbte)}` +
  `<Resultado>A</Resultado><Reproceso>${reproceso}</Reproceso><Motivos_Obs /></FEXResultAuth>`;

const optional = (n: number | undefined): string => (n === undefined ? "" : String(n));
const amount = (n: number | undefined): string => formatNumber(n ?? 0);

/** The voucher as FEXGetCMP will echo it, request fields already in response shape. */
function toVoucher(env: EnvState, cuit: string, req: FexRequest, fecha: string): FexVoucher {
  // with CanMisMonExt S the quote may be left out: the official one is the voucher's
  const ctz = req.monedaCtz ?? officialQuote(env, req.monedaId);
  const fields: Record<string, string> = {
    Fecha_cbte: fecha,
    Tipo_expo: optional(req.tipoExpo),
    Permiso_existente: req.permisoExistente,
    Dst_cmp: optional(req.dstCmp),
    Cliente: req.cliente,
    Cuit_pais_cliente: optional(req.cuitPaisCliente),
    Domicilio_cliente: req.domicilioCliente,
    Id_impositivo: req.idImpositivo,
    Moneda_Id: req.monedaId,
    Moneda_ctz: ctz === undefined ? "" : formatNumber(ctz),
    Obs_comerciales: req.obsComerciales,
    Imp_total: amount(req.impTotal),
    Obs: req.obs,
    Forma_pago: req.formaPago,
    Incoterms: req.incoterms,
    Incoterms_Ds: req.incotermsDs,
    Idioma_cbte: optional(req.idiomaCbte),
    Fecha_pago: req.fechaPago,
  };
  return {
    id: req.id ?? 0,
    cuit,
    cbteTipo: req.cbteTipo ?? 0,
    puntoVta: req.puntoVta ?? 0,
    cbteNro: req.cbteNro ?? 0,
    fechaCbte: fecha,
    cae: newCae(),
    // Observed in homologation: Fch_venc_Cae equal to the voucher date.
    fchVencCae: fecha,
    fields,
    itemsXml: listXml(
      "Items",
      req.items,
      (it) =>
        `<Item>${el("Pro_codigo", it.codigo)}${el("Pro_ds", it.ds)}<Pro_qty>${amount(it.qty)}</Pro_qty>` +
        `<Pro_umed>${it.umed ?? 0}</Pro_umed><Pro_precio_uni>${amount(it.precio)}</Pro_precio_uni>` +
        `<Pro_bonificacion>${amount(it.bonif)}</Pro_bonificacion>` +
        `<Pro_total_item>${amount(it.total)}</Pro_total_item></Item>`,
    ),
    permisosXml: listXml(
      "Permisos",
      req.permisos,
      (p) => `<Permiso>${el("Id_permiso", p.id)}<Dst_merc>${p.dst ?? 0}</Dst_merc></Permiso>`,
    ),
    cmpsAsocXml: listXml(
      "Cmps_asoc",
      req.cmpsAsoc,
      (c) =>
        `<Cmp_asoc><Cbte_tipo>${c.tipo ?? 0}</Cbte_tipo><Cbte_punto_vta>${c.pto ?? 0}</Cbte_punto_vta>` +
        `<Cbte_nro>${c.nro ?? 0}</Cbte_nro><Cbte_cuit>${c.cuit === 0 ? cuit : c.cuit}</Cbte_cuit></Cmp_asoc>`,
    ),
    opcionalesXml: listXml(
      "Opcionales",
      req.opcionales,
      (o) => `<Opcional>${el("Id", o.id)}${el("Valor", o.valor)}</Opcional>`,
    ),
  };
}

/**
 * FEXAuthorize. A request that breaks a rule answers one FEXErr (the first rule broken, see
 * validate.ts) with FEXEvents and no FEXResultAuth: nothing is authorized and no number is
 * consumed. The simulator never answers a FEXResultAuth with Resultado R nor observations in
 * Motivos_Obs: every rule it knows is a rejection of the request, and a result block on a
 * rejection would carry nothing a client could use (no CAE, a number not consumed). So a
 * client reads the outcome from FEXErr alone: 0 with a CAE, or the code that refused it.
 *
 * The Id is the idempotency key: an Id that was authorized answers the same voucher again with
 * Reproceso S, whatever the request now says; a rejected Id is not remembered, so the same Id
 * may come back corrected. Every Id received counts for FEXGetLast_ID.
 */
export function fexAuthorize(ctx: OpContext): string {
  const { r, world } = ctx;
  const req = readFexRequest(r, r.el(ctx.body, "Cmp"));
  const a = authenticate(ctx);
  if ("err" in a) return a.err;
  const { cuit } = a;
  const env = world.state;
  let changed = false;
  if (req.id !== undefined && req.id > (env.fex.lastId[cuit] ?? 0)) {
    env.fex.lastId[cuit] = req.id;
    changed = true;
  }
  const done = (answer: string): string => {
    if (changed) world.commit();
    return answer;
  };
  const existingKey = req.id === undefined ? undefined : env.fex.byId[idKey(cuit, req.id)];
  const existing = existingKey === undefined ? undefined : env.fex.vouchers[existingKey];
  if (existing !== undefined) return done(resultAuth(cuit, existing, "S") + OK_TAIL);

  const today = arDate(ctx.now);
  const key = seriesKey(cuit, req.puntoVta ?? 0, req.cbteTipo ?? 0);
  const series = env.fex.series[key] ?? { last: 0, lastFch: "" };
  const broken = judgeFex({ req, cuit, env, today, last: series.last });
  if (broken !== undefined) return done(fexErr(broken.code, broken.msg));

  const fecha = req.fechaCbte === "" ? today : req.fechaCbte;
  const v = toVoucher(env, cuit, req, fecha);
  const vKey = `${key}|${v.cbteNro}`;
  env.fex.vouchers[vKey] = v;
  env.fex.byId[idKey(cuit, v.id)] = vKey;
  env.fex.series[key] = { last: v.cbteNro, lastFch: fecha };
  changed = true;
  return done(resultAuth(cuit, v, "N") + OK_TAIL);
}

/** The series each environment is authorizing on right now. */
const activeSeries = new WeakMap<EnvState, Set<string>>();

/**
 * Two FEXAuthorize on one series processed at the same time: the later one answers 502
 * "Transaccion Activa", as WSFEv1 does for FECAESolicitar. A request holds its series from
 * arrival to answer, so fault latency is what makes two overlap; one whose token does not
 * check out, or that cannot be read, holds nothing.
 */
export function admitFex(
  world: World,
  op: string,
  body: XmlElement | undefined,
): Admission | undefined {
  if (op !== "FEXAuthorize") return undefined;
  const r = fieldReader(WSFEX_NS);
  let key: string;
  try {
    const a = authenticate({ world, body, r, now: world.now() });
    if ("err" in a) return undefined;
    const cmp = r.el(body, "Cmp");
    key = seriesKey(a.cuit, r.int(cmp, "Punto_vta") ?? 0, r.int(cmp, "Cbte_Tipo") ?? 0);
  } catch (error) {
    if (error instanceof RequestReadError) return undefined;
    throw error;
  }
  let active = activeSeries.get(world.state);
  if (active === undefined) {
    active = new Set();
    activeSeries.set(world.state, active);
  }
  if (active.has(key)) return { kind: "refused", inner: fexErr(502, "Transaccion Activa") };
  const held = active;
  held.add(key);
  return { kind: "admitted", release: () => held.delete(key) };
}
