import { newCae } from "../cae.js";
import { RequestReadError, fieldReader } from "../soap/asmx.js";
import { dummyResult } from "../soap/service.js";
import type { Admission, AsmxService, OpContext } from "../soap/service.js";
import { el } from "../soap/xml.js";
import type { XmlElement } from "../soap/xml.js";
import { isPosEnabled, wsfePos } from "../state.js";
import type { EnvState, FeSeries, Pair } from "../state.js";
import { arDate, arTimestamp, dateFromDayNumber, dayNumber } from "../time.js";
import type { World } from "../world.js";
import { cabErrors, knowledge, readDetail, storedVoucher } from "./detail.js";
import type { DetailInput } from "./findings.js";
import {
  authenticate,
  errorsXml,
  isPair,
  obsXml,
  seriesKey,
  totXRequestErrors,
  ultimoErrors,
} from "./answer.js";
import { feCaeaRegInformativo } from "./caea-inform.js";
import {
  feCaeaConsultar,
  feCaeaSinMovimientoConsultar,
  feCaeaSinMovimientoInformar,
  feCaeaSolicitar,
} from "./caea.js";
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
} from "./tables.js";

export const WSFE_NS = "http://ar.gov.afip.dif.FEV1/";

const MSG_10005 =
  "El punto de venta informado no se encuentra habilitado para emitir comprobantes por Web Services (CAE/RECE). Consultar metodo FEParamGetPtosVenta.";

const MSG_10016 =
  "El numero o fecha del comprobante no se corresponde con el proximo a autorizar. " +
  "Consultar metodo FECompUltimoAutorizado.";

/** The code is the authority's; the text is the simulator's, unaccented like the rest. */
const MSG_502 = "Transaccion Activa";

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

  const errors = cabErrors({
    present: req !== undefined && cab !== undefined,
    cantReg,
    sent: details.length,
    ptoVta,
    cbteTipo,
    reqName: "FeCAEReq",
  });
  // a CAEA point of sale issues offline, then informs: not through FECAESolicitar
  if (errors.length === 0 && wsfePos(world.state, cuit, ptoVta)?.emisionTipo === "CAEA") {
    errors.push({ code: 10005, msg: MSG_10005 });
  }
  if (errors.length === 0 && !isPosEnabled(world.state, "wsfe", cuit, ptoVta)) {
    errors.push({ code: 10005, msg: MSG_10005 });
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
    const stored = storedVoucher(d, fch, obs, { cae, caeFchVto: vto, fchProceso });
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

/** The operations that number a series, by the request element that names it. */
const SERIES_REQUESTS: Readonly<Record<string, string>> = {
  FECAESolicitar: "FeCAEReq",
  FECAEARegInformativo: "FeCAEARegInfReq",
};

/**
 * Two FECAESolicitar (or FECAEARegInformativo) on one series processed at the same time: the later one gets Err 502
 * "Transacción Activa" (one of them wins). A request holds its series from arrival to answer, so
 * the fault latency is what makes two of them overlap. One whose token does not check out, or
 * that cannot be read, holds nothing: its answer is the 600 or the fault.
 */
function admit(world: World, op: string, body: XmlElement | undefined): Admission | undefined {
  const reqName = SERIES_REQUESTS[op];
  if (reqName === undefined) return undefined;
  const r = fieldReader(WSFE_NS);
  let key: string;
  try {
    const a = authenticate({ world, body, r, now: world.now() });
    if (isPair(a)) return undefined;
    const cab = r.el(r.el(body, reqName), "FeCabReq");
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
    FECAEASolicitar: feCaeaSolicitar,
    FECAEAConsultar: feCaeaConsultar,
    FECAEARegInformativo: feCaeaRegInformativo,
    FECAEASinMovimientoInformar: feCaeaSinMovimientoInformar,
    FECAEASinMovimientoConsultar: feCaeaSinMovimientoConsultar,
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
