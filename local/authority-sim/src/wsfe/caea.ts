import { randomInt } from "node:crypto";
import type { OpContext } from "../soap/service.js";
import { el } from "../soap/xml.js";
import type { CaeaGrant, EnvState, FeVoucher, Pair } from "../state.js";
import { arDate, arTimestamp, dateFromDayNumber, dayNumber } from "../time.js";
import { MSG_NOT_FOUND, authenticate, errorsXml, isPair } from "./answer.js";

/**
 * CAEA, the contingency authorization: a 14-digit code granted in advance for a fortnight
 * (Orden 1: days 1 to 15 of Periodo yyyymm, Orden 2: the 16th to the month's end), under which
 * CAEA points of sale issue offline and later inform what they issued (caea-inform.ts), or
 * declare that they issued nothing (FECAEASinMovimientoInformar).
 */

/** How many days before its fortnight a CAEA may be asked for (15006). */
const REQUEST_DAYS_BEFORE = 5;
/**
 * Days after the fortnight's end until which its vouchers may be informed (FchTopeInf).
 * The authority answers the date; the simulator's rule is the fortnight's end plus this.
 */
export const INFORM_DAYS_AFTER = 8;

const MSG_15004 =
  "El campo <Periodo> debe tener el formato AAAAMM, donde AAAA indica el año y MM el mes en números.";
const MSG_15005 = "Campo Orden: Debe ser igual a 1 o 2.";

export interface Fortnight {
  fchVigDesde: string;
  fchVigHasta: string;
  fchTopeInf: string;
  /** the first day a CAEA for it may be asked for */
  requestFrom: string;
}

/** The fortnight of Periodo yyyymm and Orden 1 or 2, or undefined for a Periodo that is not one. */
export function fortnight(periodo: number, orden: 1 | 2): Fortnight | undefined {
  const y = Math.floor(periodo / 100);
  const m = periodo % 100;
  if (y < 1900 || y > 2999 || m < 1 || m > 12) return undefined;
  const first = dayNumber(`${y}${String(m).padStart(2, "0")}01`) ?? 0;
  const monthDays = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const desde = orden === 1 ? first : first + 15;
  const hasta = orden === 1 ? first + 14 : first + monthDays - 1;
  return {
    fchVigDesde: dateFromDayNumber(desde),
    fchVigHasta: dateFromDayNumber(hasta),
    fchTopeInf: dateFromDayNumber(hasta + INFORM_DAYS_AFTER),
    requestFrom: dateFromDayNumber(desde - REQUEST_DAYS_BEFORE),
  };
}

/** yyyymmdd as .NET's invariant M/d/yyyy, the way the 15006 message writes its dates. */
function usDate(yyyymmdd: string): string {
  return `${Number(yyyymmdd.slice(4, 6))}/${Number(yyyymmdd.slice(6))}/${yyyymmdd.slice(0, 4)}`;
}

export const caeaKey = (cuit: string, periodo: number, orden: number): string =>
  `${cuit}|${periodo}|${orden}`;

/** The grant of a CAEA code, whoever it was granted to. */
export function findCaea(env: EnvState, caea: string): CaeaGrant | undefined {
  return Object.values(env.caeas).find((g) => g.caea === caea);
}

/** A fresh CAEA: 14 digits, never one granted before in this environment. */
function newCaea(env: EnvState): string {
  for (;;) {
    const code = `3${String(randomInt(0, 1e6)).padStart(6, "0")}${String(randomInt(0, 1e7)).padStart(7, "0")}`;
    if (findCaea(env, code) === undefined) return code;
  }
}

/** A CAEA point of sale of the CUIT that may issue today: not blocked, not withdrawn. */
export function hasActiveCaeaPos(env: EnvState, cuit: string, today: string): boolean {
  return env.pointsOfSale.some(
    (p) =>
      p.cuit === cuit &&
      p.service === "wsfe" &&
      p.emisionTipo === "CAEA" &&
      p.bloqueado !== true &&
      (p.fchBaja === undefined || p.fchBaja > today),
  );
}

function grantXml(g: CaeaGrant): string {
  return (
    `<ResultGet>${el("CAEA", g.caea)}<Periodo>${g.periodo}</Periodo><Orden>${g.orden}</Orden>` +
    `${el("FchVigDesde", g.fchVigDesde)}${el("FchVigHasta", g.fchVigHasta)}` +
    `${el("FchTopeInf", g.fchTopeInf)}${el("FchProceso", g.fchProceso)}</ResultGet>`
  );
}

/** Periodo and Orden as FECAEASolicitar and FECAEAConsultar take them, or the error (15004/15005). */
function readPeriod(ctx: OpContext): { periodo: number; orden: 1 | 2; f: Fortnight } | Pair {
  const periodo = ctx.r.int(ctx.body, "Periodo") ?? 0;
  const orden = ctx.r.int(ctx.body, "Orden") ?? 0;
  if (fortnight(periodo, 1) === undefined) return { code: 15004, msg: MSG_15004 };
  if (orden !== 1 && orden !== 2) return { code: 15005, msg: MSG_15005 };
  const f = fortnight(periodo, orden);
  if (f === undefined) return { code: 15004, msg: MSG_15004 };
  return { periodo, orden, f };
}

export function feCaeaSolicitar(ctx: OpContext): string {
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  const p = readPeriod(ctx);
  if ("code" in p) return errorsXml([p]);
  const env = ctx.world.state;
  const today = arDate(ctx.now);
  if (!hasActiveCaeaPos(env, a.cuit, today)) {
    return errorsXml([
      {
        code: 15003,
        msg: "Campo CUIT: Debera poseer al menos un punto de venta activo correspondiente al regimen CAEA.",
      },
    ]);
  }
  const key = caeaKey(a.cuit, p.periodo, p.orden);
  if (env.caeas[key] !== undefined) {
    // asking again is refused; FECAEAConsultar answers the CAEA granted
    return errorsXml([
      {
        code: 15008,
        msg: "Existe un CAEA otorgado para la CUIT solicitante con igual periodo y orden. Consultar metodo FECAEAConsultar.",
      },
    ]);
  }
  if (today < p.f.requestFrom || today > p.f.fchVigHasta) {
    return errorsXml([
      {
        code: 15006,
        msg:
          "Fecha de envío podrá ser desde 5 días corridos anteriores al inicio hasta el último dia de cada quincena. " +
          `Del ${usDate(p.f.requestFrom)} hasta ${usDate(p.f.fchVigHasta)}`,
      },
    ]);
  }
  const grant: CaeaGrant = {
    cuit: a.cuit,
    caea: newCaea(env),
    periodo: p.periodo,
    orden: p.orden,
    fchVigDesde: p.f.fchVigDesde,
    fchVigHasta: p.f.fchVigHasta,
    fchTopeInf: p.f.fchTopeInf,
    fchProceso: arTimestamp(ctx.now),
  };
  env.caeas[key] = grant;
  ctx.world.commit();
  return grantXml(grant);
}

export function feCaeaConsultar(ctx: OpContext): string {
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  const p = readPeriod(ctx);
  if ("code" in p) return errorsXml([p]);
  const grant = ctx.world.state.caeas[caeaKey(a.cuit, p.periodo, p.orden)];
  return grant === undefined ? errorsXml([{ code: 602, msg: MSG_NOT_FOUND }]) : grantXml(grant);
}

/** Every voucher informed under a CAEA, with its series (the grant's CUIT). */
export function caeaVouchers(
  env: EnvState,
  g: CaeaGrant,
): { ptoVta: number; cbteTipo: number; cbteNro: number; v: FeVoucher }[] {
  const found: { ptoVta: number; cbteTipo: number; cbteNro: number; v: FeVoucher }[] = [];
  for (const [key, series] of Object.entries(env.fe)) {
    const [cuit = "", ptoVta = "0", cbteTipo = "0"] = key.split("|");
    if (cuit !== g.cuit) continue;
    for (const [nro, v] of Object.entries(series.vouchers)) {
      if (v.emisionTipo === "CAEA" && v.cae === g.caea) {
        found.push({ ptoVta: Number(ptoVta), cbteTipo: Number(cbteTipo), cbteNro: Number(nro), v });
      }
    }
  }
  return found.sort(
    (x, y) => x.ptoVta - y.ptoVta || x.cbteTipo - y.cbteTipo || x.cbteNro - y.cbteNro,
  );
}

const sinMovXml = (caea: string, fchProceso: string, ptoVta: number): string =>
  `${el("CAEA", caea)}${el("FchProceso", fchProceso)}<PtoVta>${ptoVta}</PtoVta>`;

/**
 * Declares that a CAEA point of sale issued nothing under a CAEA. The answer echoes CAEA and
 * PtoVta with Resultado A, or R and the first check that failed.
 */
export function feCaeaSinMovimientoInformar(ctx: OpContext): string {
  const ptoVta = ctx.r.int(ctx.body, "PtoVta") ?? 0;
  const caea = ctx.r.str(ctx.body, "CAEA")?.trim() ?? "";
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  const env = ctx.world.state;
  const fchProceso = arTimestamp(ctx.now);
  const today = arDate(ctx.now);
  const grant = findCaea(env, caea);
  const pos = env.pointsOfSale.find(
    (p) => p.cuit === a.cuit && p.ptoVta === ptoVta && p.service === "wsfe",
  );
  let error: Pair | undefined;
  if (ptoVta < 1 || ptoVta > 99998) {
    error = { code: 1206, msg: "El punto de venta debe estar comprendido entre 1 y 99998." };
  } else if (!/^\d{14}$/.test(caea)) {
    error = { code: 1207, msg: "El CAEA informado no tiene un formato valido." };
  } else if (grant === undefined) {
    error = { code: 1200, msg: "El codigo de autorizacion debe ser del tipo CAEA" };
  } else if (grant.cuit !== a.cuit) {
    error = { code: 1201, msg: "El CAEA no corresponde a la CUIT del emisor indicada en Auth." };
  } else if (pos?.emisionTipo !== "CAEA") {
    error = {
      code: 1204,
      msg: "El PtoVta debe corresponder a un punto de venta habilitado para el regimen CAEA.",
    };
  } else if (today < grant.fchVigDesde) {
    error = {
      code: 1203,
      msg: "La fecha de envio de la solicitud debe ser mayor a la fecha de inicio de vigencia del CAEA.",
    };
  } else if (caeaVouchers(env, grant).some((x) => x.ptoVta === ptoVta)) {
    error = {
      code: 1202,
      msg: "El CAEA / PtoVta se encuentra informado como utilizado en algun comprobante.",
    };
  } else if (
    env.caeaSinMovimiento.some((s) => s.cuit === a.cuit && s.caea === caea && s.ptoVta === ptoVta)
  ) {
    error = {
      code: 1209,
      msg: "El punto de venta informado como sin movimiento ya fue notificado.",
    };
  }
  if (error !== undefined) {
    return `${sinMovXml(caea, fchProceso, ptoVta)}<Resultado>R</Resultado>${errorsXml([error])}`;
  }
  env.caeaSinMovimiento.push({ cuit: a.cuit, caea, ptoVta, fchProceso });
  ctx.world.commit();
  return `${sinMovXml(caea, fchProceso, ptoVta)}<Resultado>A</Resultado>`;
}

/** The declarations without movement of a CAEA: for one point of sale, or all with PtoVta 0. */
export function feCaeaSinMovimientoConsultar(ctx: OpContext): string {
  const caea = ctx.r.str(ctx.body, "CAEA")?.trim() ?? "";
  const ptoVta = ctx.r.int(ctx.body, "PtoVta") ?? 0;
  const a = authenticate(ctx);
  if (isPair(a)) return errorsXml([a]);
  const env = ctx.world.state;
  if (!/^\d{14}$/.test(caea)) {
    return errorsXml([{ code: 10100, msg: "No ingreso el CAEA o el formato es invalido." }]);
  }
  if (ptoVta < 0 || ptoVta > 99998) {
    return errorsXml([
      { code: 10101, msg: "No ingreso el Punto de Venta o el formato es invalido." },
    ]);
  }
  const grant = findCaea(env, caea);
  if (
    ptoVta > 0 &&
    grant !== undefined &&
    grant.cuit === a.cuit &&
    caeaVouchers(env, grant).some((x) => x.ptoVta === ptoVta)
  ) {
    return errorsXml([
      { code: 10105, msg: "El punto de venta ingresado registra comprobantes informados." },
    ]);
  }
  const found = env.caeaSinMovimiento.filter(
    (s) => s.cuit === a.cuit && s.caea === caea && (ptoVta === 0 || s.ptoVta === ptoVta),
  );
  if (found.length === 0) {
    return errorsXml([
      {
        code: 10102,
        msg: "El CAEA informado no se encuentra registrado en las bases de la Administracion como sin movimientos.",
      },
    ]);
  }
  return `<ResultGet>${found
    .map((s) => `<FECAEASinMov>${sinMovXml(s.caea, s.fchProceso, s.ptoVta)}</FECAEASinMov>`)
    .join("")}</ResultGet>`;
}
