import type { OpContext } from "../soap/service.js";
import { el } from "../soap/xml.js";
import { wsfePos } from "../state.js";
import type { FeSeries, Pair } from "../state.js";
import { arDate, arTimestamp } from "../time.js";
import { authenticate, errorsXml, isPair, obsXml, seriesKey } from "./answer.js";
import { findCaea } from "./caea.js";
import { cabErrors, knowledge, readDetail, storedVoucher } from "./detail.js";
import type { DetailInput } from "./findings.js";
import { validateDetail } from "./validate.js";

/**
 * FECAEARegInformativo: a CAEA point of sale informs the vouchers it issued under a CAEA. Each
 * detail is judged by the rules of FECAESolicitar (the dates against the moment it was generated,
 * CbteFchHsGen, instead of today) and by the CAEA's own: the CAEA is the issuer's and covers the
 * voucher date, the point of sale issues under CAEA, the number continues the series (informing
 * a voucher twice is refused: its number is no longer the next), and the CAEA's vouchers are
 * informed between the start of its fortnight and its FchTopeInf. Accepted vouchers join the
 * series FECompUltimoAutorizado and FECompConsultar read.
 */

const MSG_701 =
  "El punto de venta debe ser del tipo habilitado para CAEA y no debe estar bloqueado. Consultar metodo FEParamGetPtosVenta.";
const MSG_703 =
  "El numero de comprobante informado debe ser mayor en 1 al ultimo informado para igual punto de venta y tipo de comprobante. Consultar metodo FECompUltimoAutorizado.";
const MSG_704 =
  "La fecha del comprobante debe ser mayor o igual a la fecha del ultimo comprobante informado para igual tipo de comprobante y punto de venta.";

interface CaeaDetail extends DetailInput {
  caea: string;
  /** yyyymmddhhmmss, "" when not sent */
  cbteFchHsGen: string;
}

function detResp(d: CaeaDetail, resultado: "A" | "R", obs: readonly Pair[]): string {
  return (
    `<FECAEADetResponse><Concepto>${d.concepto}</Concepto><DocTipo>${d.docTipo}</DocTipo>` +
    `<DocNro>${d.docNro}</DocNro><CbteDesde>${d.cbteDesde}</CbteDesde>` +
    `<CbteHasta>${d.cbteHasta}</CbteHasta>${el("CbteFch", d.cbteFch ?? "")}` +
    `<Resultado>${resultado}</Resultado>${obsXml(obs)}${el("CAEA", d.caea)}</FECAEADetResponse>`
  );
}

/** yyyymmddhhmmss that is a real moment. */
function isTimestamp(s: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(s);
  if (m === null) return false;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  return t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60 && se < 60;
}

export function feCaeaRegInformativo(ctx: OpContext): string {
  const { r, world } = ctx;
  const req = r.el(ctx.body, "FeCAEARegInfReq");
  const cab = r.el(req, "FeCabReq");
  const cantReg = r.int(cab, "CantReg") ?? 0;
  const ptoVta = r.int(cab, "PtoVta") ?? 0;
  const cbteTipo = r.int(cab, "CbteTipo") ?? 0;
  const details: CaeaDetail[] = r.all(r.el(req, "FeDetReq"), "FECAEADetRequest").map((d) => ({
    ...readDetail(r, d),
    caea: r.str(d, "CAEA")?.trim() ?? "",
    cbteFchHsGen: r.str(d, "CbteFchHsGen")?.trim() ?? "",
  }));
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  const cuit = a.cuit;
  const env = world.state;
  const fchProceso = arTimestamp(ctx.now);
  const today = arDate(ctx.now);

  const errors = cabErrors({
    present: req !== undefined && cab !== undefined,
    reqName: "FeCAEARegInfReq",
    cantReg,
    sent: details.length,
    ptoVta,
    cbteTipo,
  });
  const pos = wsfePos(env, cuit, ptoVta);
  if (errors.length === 0 && (pos?.emisionTipo !== "CAEA" || pos.bloqueado === true)) {
    errors.push({ code: 701, msg: MSG_701 });
  }

  const known = knowledge(env);
  const key = seriesKey(cuit, ptoVta, cbteTipo);
  const series: FeSeries = env.fe[key] ?? { last: 0, lastFch: "", vouchers: {} };
  const addError = (e: Pair): void => {
    if (!errors.some((x) => x.code === e.code)) errors.push(e);
  };
  const headerFailed = errors.length > 0;
  const dets: string[] = [];
  const results: ("A" | "R")[] = [];
  for (const d of details) {
    const reject = (obs: Pair[] = []): void => {
      dets.push(detResp(d, "R", obs));
      results.push("R");
    };
    if (headerFailed) {
      reject();
      continue;
    }
    if (!/^\d{14}$/.test(d.caea)) {
      addError({ code: 782, msg: "El <CAEA> es obligatorio informarlo." });
      reject();
      continue;
    }
    const grant = findCaea(env, d.caea);
    if (grant === undefined) {
      addError({
        code: 780,
        msg: "El CAEA informado no corresponde a un CAEA registrado en las bases de la Administracion.",
      });
      reject();
      continue;
    }
    if (grant.cuit !== cuit) {
      addError({
        code: 705,
        msg: "El CAEA informado no corresponde a la CUIT que esta informando.",
      });
      reject();
      continue;
    }
    const fch = d.cbteFch ?? "";
    const caeaObs: Pair[] = [];
    if (!/^\d{8}$/.test(fch)) {
      caeaObs.push({ code: 783, msg: "Campo CbteFch obligatorio, formato yyyymmdd." });
    } else if (fch < grant.fchVigDesde || fch > grant.fchVigHasta) {
      caeaObs.push({
        code: 702,
        msg: "Campo CbteFch debe estar comprendido dentro de la fecha desde y fecha hasta de vigencia del CAEA.",
      });
    }
    if (today < grant.fchVigDesde || today > grant.fchTopeInf) {
      caeaObs.push({
        code: 1414,
        msg: `Los comprobantes del CAEA solo pueden informarse desde el inicio de su vigencia hasta su fecha tope de informacion (${grant.fchTopeInf}).`,
      });
    }
    if (d.cbteFchHsGen === "") {
      caeaObs.push({
        code: 1440,
        msg: "Si el punto de venta es para CONTINGENCIAS CAEA el campo CbteFchHsGen es obligatorio informarlo.",
      });
    } else if (!isTimestamp(d.cbteFchHsGen)) {
      caeaObs.push({
        code: 1441,
        msg: "El campo CbteFchHsGen debe tener el formato yyyymmddhhmiss.",
      });
    }
    if (caeaObs.length > 0) {
      reject(caeaObs);
      continue;
    }
    if (d.cbteDesde !== series.last + 1) {
      addError({ code: 703, msg: MSG_703 });
      reject();
      continue;
    }
    if (series.lastFch !== "" && fch < series.lastFch) {
      addError({ code: 704, msg: MSG_704 });
      reject();
      continue;
    }
    // the voucher's dates are judged against when it was generated, not when it is informed
    const generated = d.cbteFchHsGen.slice(0, 8);
    const found = validateDetail({ cuit, cbteTipo, today: generated, fch, detail: d, known });
    const obs: Pair[] = found.map(({ code, msg }) => ({ code, msg }));
    if (found.some((x) => x.rejects)) {
      reject(obs);
      continue;
    }
    if (
      env.caeaSinMovimiento.some((s) => s.cuit === cuit && s.caea === d.caea && s.ptoVta === ptoVta)
    ) {
      obs.push({
        code: 1424,
        msg: "El CAEA y punto de venta no debe estar informado sin movimientos.",
      });
    }
    const stored = storedVoucher(d, fch, obs, {
      cae: d.caea,
      caeFchVto: grant.fchVigHasta,
      fchProceso,
      emisionTipo: "CAEA",
      cbteFchHsGen: d.cbteFchHsGen,
    });
    for (let n = d.cbteDesde; n <= d.cbteHasta; n++) series.vouchers[String(n)] = stored;
    series.last = d.cbteHasta;
    series.lastFch = fch;
    dets.push(detResp(d, "A", obs));
    results.push("A");
  }
  if (results.includes("A")) {
    env.fe[key] = series;
    world.commit();
  }
  const resultado =
    results.length > 0 && results.every((x) => x === "A") ? "A" : results.includes("A") ? "P" : "R";
  return (
    `<FeCabResp><Cuit>${cuit}</Cuit><PtoVta>${ptoVta}</PtoVta><CbteTipo>${cbteTipo}</CbteTipo>` +
    `<FchProceso>${fchProceso}</FchProceso><CantReg>${cantReg}</CantReg>` +
    `<Resultado>${resultado}</Resultado><Reproceso>N</Reproceso></FeCabResp>` +
    `<FeDetResp>${dets.join("")}</FeDetResp>${errorsXml(errors)}`
  );
}
