import { newCae } from "../cae.js";
import { RequestReadError, fieldReader } from "../soap/asmx.js";
import type { FieldReader } from "../soap/asmx.js";
import { dummyResult } from "../soap/service.js";
import type { Admission, AsmxService, OpContext } from "../soap/service.js";
import { el } from "../soap/xml.js";
import type { XmlElement } from "../soap/xml.js";
import { isPosEnabled } from "../state.js";
import type { EnvState, FeSeries, FeVoucher, Pair } from "../state.js";
import { arDate, arTimestamp, dateFromDayNumber, dayNumber } from "../time.js";
import type { World } from "../world.js";
import type { DetailInput, Knowledge } from "./findings.js";
import {
  MAX_REG_X_REQ,
  authenticate,
  errorsXml,
  isPair,
  obsXml,
  seriesKey,
  totXRequestErrors,
  ultimoErrors,
} from "./answer.js";
import { feCompConsultar, feCompTotXRequest, feCompUltimoAutorizado } from "./queries.js";
import {
  feParamGetActividades,
  feParamGetCondicionIvaReceptor,
  feParamGetCotizacion,
  feParamGetPtosVenta,
  feParamGetTiposPaises,
  paramOp,
} from "./params.js";
import { validateDetail } from "./validate.js";
import {
  CBTE_TIPOS,
  CONCEPTOS,
  DOC_TIPOS,
  MONEDAS,
  OPCIONALES,
  TIPOS_IVA,
  TRIBUTOS,
  cbteClass,
  isFce,
} from "./tables.js";

export const WSFE_NS = "http://ar.gov.afip.dif.FEV1/";

const MSG_10016 =
  "El numero o fecha del comprobante no se corresponde con el proximo a autorizar. " +
  "Consultar metodo FECompUltimoAutorizado.";

/** The code is the authority's; the text is the simulator's, unaccented like the rest. */
const MSG_502 = "Transaccion Activa";

function readDetail(r: FieldReader, d: XmlElement): DetailInput {
  const arr = <T>(wrapper: string, item: string, f: (x: XmlElement) => T): T[] | undefined => {
    const w = r.el(d, wrapper);
    return w === undefined ? undefined : r.all(w, item).map(f);
  };
  const periodo = r.el(d, "PeriodoAsoc");
  return {
    concepto: r.int(d, "Concepto") ?? 0,
    docTipo: r.int(d, "DocTipo") ?? 0,
    docNro: r.int(d, "DocNro") ?? 0,
    cbteDesde: r.int(d, "CbteDesde") ?? 0,
    cbteHasta: r.int(d, "CbteHasta") ?? 0,
    cbteFch: r.str(d, "CbteFch")?.trim(),
    impTotal: r.num(d, "ImpTotal") ?? 0,
    impTotConc: r.num(d, "ImpTotConc") ?? 0,
    impNeto: r.num(d, "ImpNeto") ?? 0,
    impOpEx: r.num(d, "ImpOpEx") ?? 0,
    impTrib: r.num(d, "ImpTrib") ?? 0,
    impIva: r.num(d, "ImpIVA") ?? 0,
    fchServDesde: r.str(d, "FchServDesde")?.trim() ?? "",
    fchServHasta: r.str(d, "FchServHasta")?.trim() ?? "",
    fchVtoPago: r.str(d, "FchVtoPago")?.trim() ?? "",
    monId: r.str(d, "MonId")?.trim() ?? "",
    monCotiz: r.num(d, "MonCotiz"),
    canMisMonExt: r.str(d, "CanMisMonExt")?.trim() ?? "",
    condicionIvaReceptorId: r.int(d, "CondicionIVAReceptorId"),
    cbtesAsoc: arr("CbtesAsoc", "CbteAsoc", (x) => ({
      tipo: r.int(x, "Tipo") ?? 0,
      ptoVta: r.int(x, "PtoVta") ?? 0,
      nro: r.int(x, "Nro") ?? 0,
      cuit: r.str(x, "Cuit")?.trim() ?? "",
      cbteFch: r.str(x, "CbteFch")?.trim() ?? "",
    })),
    tributos: arr("Tributos", "Tributo", (x) => ({
      id: r.int(x, "Id") ?? 0,
      desc: r.str(x, "Desc") ?? "",
      baseImp: r.num(x, "BaseImp") ?? 0,
      alic: r.num(x, "Alic") ?? 0,
      importe: r.num(x, "Importe") ?? 0,
    })),
    iva: arr("Iva", "AlicIva", (x) => ({
      id: r.int(x, "Id") ?? 0,
      baseImp: r.num(x, "BaseImp") ?? 0,
      importe: r.num(x, "Importe") ?? 0,
    })),
    opcionales: arr("Opcionales", "Opcional", (x) => ({
      id: r.str(x, "Id")?.trim() ?? "",
      valor: r.str(x, "Valor") ?? "",
    })),
    compradores: arr("Compradores", "Comprador", (x) => ({
      docTipo: r.int(x, "DocTipo") ?? 0,
      docNro: r.int(x, "DocNro") ?? 0,
      porcentaje: r.num(x, "Porcentaje") ?? 0,
    })),
    periodoAsoc:
      periodo === undefined
        ? undefined
        : {
            fchDesde: r.str(periodo, "FchDesde")?.trim() ?? "",
            fchHasta: r.str(periodo, "FchHasta")?.trim() ?? "",
          },
    actividades: arr("Actividades", "Actividad", (x) => r.int(x, "Id") ?? 0),
  };
}

/** What FECAESolicitar judges against besides the request: this environment's state. */
function knowledge(env: EnvState): Knowledge {
  return {
    person: (cuit) => env.persons[cuit],
    officialRate: (monId) => env.cotizaciones[monId],
    voucher: (cuit, ptoVta, cbteTipo, nro) =>
      env.fe[seriesKey(cuit, ptoVta, cbteTipo)]?.vouchers[String(nro)],
    electronicPos: (cuit, ptoVta) => isPosEnabled(env, "wsfe", cuit, ptoVta),
  };
}

function detResp(
  d: DetailInput,
  fch: string,
  resultado: string,
  obs: readonly Pair[],
  cae = "",
  vto = "",
): string {
  return (
    `<FECAEDetResponse><Concepto>${d.concepto}</Concepto><DocTipo>${d.docTipo}</DocTipo>` +
    `<DocNro>${d.docNro}</DocNro><CbteDesde>${d.cbteDesde}</CbteDesde>` +
    `<CbteHasta>${d.cbteHasta}</CbteHasta>${el("CbteFch", fch)}<Resultado>${resultado}</Resultado>` +
    `${obsXml(obs)}${el("CAE", cae)}${el("CAEFchVto", vto)}</FECAEDetResponse>`
  );
}

function feCaeSolicitar(ctx: OpContext): string {
  const { r, world } = ctx;
  const req = r.el(ctx.body, "FeCAEReq");
  const cab = r.el(req, "FeCabReq");
  const cantReg = r.int(cab, "CantReg") ?? 0;
  const ptoVta = r.int(cab, "PtoVta") ?? 0;
  const cbteTipo = r.int(cab, "CbteTipo") ?? 0;
  const details = r.all(r.el(req, "FeDetReq"), "FECAEDetRequest").map((d) => readDetail(r, d));
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  const cuit = a.cuit;
  const fchProceso = arTimestamp(ctx.now);
  const today = arDate(ctx.now);

  const errors: Pair[] = [];
  if (req === undefined || cab === undefined) {
    errors.push({ code: 10000, msg: "Campo FeCAEReq no fue ingresado o esta mal formado." });
  } else if (cantReg < 1 || cantReg > 9998) {
    errors.push({ code: 10001, msg: "Campo CantReg debe estar comprendido entre 1 y 9998." });
  } else if (cantReg !== details.length) {
    errors.push({
      code: 10002,
      msg: "La cantidad de registros informada en CantReg no coincide con la cantidad de registros enviados en FeDetReq.",
    });
  } else if (cantReg > MAX_REG_X_REQ || (isFce(cbteTipo) && cantReg > 1)) {
    errors.push({
      code: 10003,
      msg: isFce(cbteTipo)
        ? "Para comprobantes MiPyMEs (FCE) solo puede informarse 1 (un) comprobante por requerimiento."
        : `Campo CantReg no puede superar la cantidad de registros por request (${MAX_REG_X_REQ}). Consultar metodo FECompTotXRequest.`,
    });
  }
  if (errors.length === 0 && (ptoVta < 1 || ptoVta > 99998)) {
    errors.push({ code: 10004, msg: "Campo PtoVta debe estar comprendido entre 1 y 99998." });
  }
  if (errors.length === 0 && cbteTipo <= 0) {
    errors.push({ code: 10006, msg: "Campo CbteTipo debe ser mayor a 0." });
  }
  if (errors.length === 0 && cbteClass(cbteTipo) === undefined) {
    errors.push({
      code: 10007,
      msg: "Campo CbteTipo no se encuentra habilitado para el emisor. Consultar metodo FEParamGetTiposCbte.",
    });
  }
  if (errors.length === 0 && !isPosEnabled(world.state, "wsfe", cuit, ptoVta)) {
    errors.push({
      code: 10005,
      msg: "El punto de venta informado no se encuentra habilitado para emitir comprobantes por Web Services (CAE/RECE). Consultar metodo FEParamGetPtosVenta.",
    });
  }

  const known = knowledge(world.state);
  const key = seriesKey(cuit, ptoVta, cbteTipo);
  const series: FeSeries = world.state.fe[key] ?? { last: 0, lastFch: "", vouchers: {} };
  const dets: string[] = [];
  const results: ("A" | "R")[] = [];
  for (const d of details) {
    const fch = d.cbteFch === undefined || d.cbteFch === "" ? today : d.cbteFch;
    if (errors.some((e) => e.code !== 10016)) {
      dets.push(detResp(d, d.cbteFch ?? "", "R", []));
      results.push("R");
      continue;
    }
    if (d.cbteDesde !== series.last + 1 || (series.lastFch !== "" && fch < series.lastFch)) {
      if (!errors.some((e) => e.code === 10016)) errors.push({ code: 10016, msg: MSG_10016 });
      dets.push(detResp(d, fch, "R", []));
      results.push("R");
      continue;
    }
    const found = validateDetail({ cuit, cbteTipo, today, fch, detail: d, known });
    const obs = found.map(({ code, msg }) => ({ code, msg }));
    if (found.some((x) => x.rejects)) {
      dets.push(detResp(d, fch, "R", obs));
      results.push("R");
      continue;
    }
    const cae = newCae();
    const vtoDay = dayNumber(fch);
    const vto = vtoDay === undefined ? fch : dateFromDayNumber(vtoDay + 10);
    const stored: FeVoucher = {
      concepto: d.concepto,
      docTipo: d.docTipo,
      docNro: d.docNro,
      cbteDesde: d.cbteDesde,
      cbteHasta: d.cbteHasta,
      cbteFch: fch,
      impTotal: d.impTotal,
      impTotConc: d.impTotConc,
      impNeto: d.impNeto,
      impOpEx: d.impOpEx,
      impTrib: d.impTrib,
      impIva: d.impIva,
      fchServDesde: d.fchServDesde,
      fchServHasta: d.fchServHasta,
      fchVtoPago: d.fchVtoPago,
      monId: d.monId,
      monCotiz: d.monCotiz ?? 0,
      canMisMonExt: d.canMisMonExt,
      condicionIvaReceptorId: d.condicionIvaReceptorId ?? null,
      cbtesAsoc: d.cbtesAsoc ?? [],
      tributos: d.tributos ?? [],
      iva: d.iva ?? [],
      opcionales: d.opcionales ?? [],
      compradores: d.compradores ?? [],
      periodoAsoc: d.periodoAsoc ?? null,
      actividades: d.actividades ?? [],
      resultado: "A",
      observaciones: obs,
      cae,
      caeFchVto: vto,
      fchProceso,
    };
    for (let n = d.cbteDesde; n <= d.cbteHasta; n++) series.vouchers[String(n)] = stored;
    series.last = d.cbteHasta;
    series.lastFch = fch;
    dets.push(detResp(d, fch, "A", obs, cae, vto));
    results.push("A");
  }
  if (results.includes("A")) {
    world.state.fe[key] = series;
    world.commit();
  }
  const counted = (world.state.stats.details ??= {
    sent: 0,
    authorized: 0,
    rejected: 0,
    largestBatch: 0,
  });
  counted.sent += results.length;
  counted.authorized += results.filter((x) => x === "A").length;
  counted.rejected += results.filter((x) => x === "R").length;
  counted.largestBatch = Math.max(counted.largestBatch, results.length);
  const resultado =
    results.every((x) => x === "A") && results.length > 0
      ? "A"
      : results.some((x) => x === "A")
        ? "P"
        : "R";
  return (
    `<FeCabResp><Cuit>${cuit}</Cuit><PtoVta>${ptoVta}</PtoVta><CbteTipo>${cbteTipo}</CbteTipo>` +
    `<FchProceso>${fchProceso}</FchProceso><CantReg>${cantReg}</CantReg>` +
    `<Resultado>${resultado}</Resultado><Reproceso>N</Reproceso></FeCabResp>` +
    `<FeDetResp>${dets.join("")}</FeDetResp>${errorsXml(errors)}`
  );
}

/** The series each environment is issuing on right now. */
const activeSeries = new WeakMap<EnvState, Set<string>>();

/**
 * Two FECAESolicitar on one series processed at the same time: the later one gets Err 502
 * "Transacción Activa" (one of them wins). A request holds its series from arrival to answer, so
 * the fault latency is what makes two of them overlap. One whose token does not check out, or
 * that cannot be read, holds nothing: its answer is the 600 or the fault.
 */
function admit(world: World, op: string, body: XmlElement | undefined): Admission | undefined {
  if (op !== "FECAESolicitar") return undefined;
  const r = fieldReader(WSFE_NS);
  let key: string;
  try {
    const a = authenticate({ world, body, r, now: world.now() });
    if (isPair(a)) return undefined;
    const cab = r.el(r.el(body, "FeCAEReq"), "FeCabReq");
    key = seriesKey(a.cuit, r.int(cab, "PtoVta") ?? 0, r.int(cab, "CbteTipo") ?? 0);
  } catch (error) {
    if (error instanceof RequestReadError) return undefined;
    throw error;
  }
  let active = activeSeries.get(world.state);
  if (active === undefined) {
    active = new Set();
    activeSeries.set(world.state, active);
  }
  if (active.has(key)) {
    return { kind: "refused", inner: errorsXml([{ code: 502, msg: MSG_502 }]) };
  }
  const held = active;
  held.add(key);
  return { kind: "admitted", release: () => held.delete(key) };
}

export const wsfeService: AsmxService = {
  ns: WSFE_NS,
  header: {
    ambiente: { homologacion: "HomologacionExterno - efa", produccion: "Produccion - efa" },
    id: "4.3.0.0",
  },
  operations: {
    FEDummy: () => dummyResult("OK"),
    FECAESolicitar: feCaeSolicitar,
    FECompUltimoAutorizado: feCompUltimoAutorizado,
    FECompConsultar: feCompConsultar,
    FECompTotXRequest: feCompTotXRequest,
    FEParamGetTiposCbte: paramOp("CbteTipo", CBTE_TIPOS),
    FEParamGetTiposConcepto: paramOp("ConceptoTipo", CONCEPTOS),
    FEParamGetTiposDoc: paramOp("DocTipo", DOC_TIPOS),
    FEParamGetTiposIva: paramOp("IvaTipo", TIPOS_IVA),
    FEParamGetTiposMonedas: paramOp("Moneda", MONEDAS),
    FEParamGetTiposOpcional: paramOp("OpcionalTipo", OPCIONALES),
    FEParamGetTiposTributos: paramOp("TributoTipo", TRIBUTOS),
    FEParamGetPtosVenta: feParamGetPtosVenta,
    FEParamGetCotizacion: feParamGetCotizacion,
    FEParamGetCondicionIvaReceptor: feParamGetCondicionIvaReceptor,
    FEParamGetTiposPaises: feParamGetTiposPaises,
    FEParamGetActividades: feParamGetActividades,
  },
  admit,
  errorResult(op, code, msg) {
    const errs = [{ code, msg }];
    switch (op) {
      case "FECompUltimoAutorizado":
        return ultimoErrors(errs);
      case "FECompTotXRequest":
        return totXRequestErrors(errs);
      case "FEDummy":
        return dummyResult("ERROR");
      default:
        return errorsXml(errs);
    }
  },
};
