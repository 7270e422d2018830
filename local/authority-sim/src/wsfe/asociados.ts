import { dayNumber } from "../time.js";
import type { DetailCheck, Findings } from "./findings.js";
import { ASSOCIABLE, CBTES_ASOC_ALLOWED, NOTES, isFce } from "./tables.js";

const PERIODO_MIN = "20060101";

/**
 * Associated vouchers (10040, 10041, 10057–10060, 10197): which types may associate
 * which, each entry's ranges, no repeats, and that a voucher of an electronic point of sale
 * exists (an observation; FCE notes reject).
 */
function checkCbtesAsoc(c: DetailCheck, f: Findings): void {
  const asoc = c.detail.cbtesAsoc;
  if (asoc === undefined) return;
  if (!CBTES_ASOC_ALLOWED.has(c.cbteTipo)) {
    f.reject(10040, "El tipo de comprobante informado no admite comprobantes asociados.");
    return;
  }
  const allowed = ASSOCIABLE[c.cbteTipo];
  if (allowed !== undefined && asoc.some((a) => a.tipo > 0 && !allowed.has(a.tipo))) {
    f.reject(
      10040,
      "Los comprobantes asociados informados no son validos para el tipo de comprobante.",
    );
  }
  if (asoc.some((a) => a.tipo <= 0)) f.reject(10057, "Campo Tipo de CbtesAsoc debe ser mayor a 0.");
  if (asoc.some((a) => a.ptoVta < 1 || a.ptoVta > 99998)) {
    f.reject(10058, "Campo PtoVta de CbtesAsoc debe estar comprendido entre 1 y 99998.");
  }
  if (asoc.some((a) => a.nro < 1 || a.nro > 99999999)) {
    f.reject(10059, "Campo Nro de CbtesAsoc debe estar comprendido entre 1 y 99999999.");
  }
  const keys = asoc.map((a) => `${a.cuit || c.cuit}|${a.tipo}|${a.ptoVta}|${a.nro}`);
  if (new Set(keys).size !== keys.length) {
    f.reject(10060, "No se puede repetir un comprobante asociado en CbtesAsoc.");
  }
  const missing = asoc.some((a) => {
    const issuer = a.cuit === "" ? c.cuit : a.cuit;
    return (
      a.tipo > 0 &&
      a.nro > 0 &&
      c.known.electronicPos(issuer, a.ptoVta) &&
      c.known.voucher(issuer, a.ptoVta, a.tipo, a.nro) === undefined
    );
  });
  if (missing) {
    const msg =
      "El comprobante asociado informado no se encuentra autorizado. Consultar metodo FECompConsultar.";
    if (isFce(c.cbteTipo)) f.reject(10041, msg);
    else f.observe(10041, msg);
  }
}

/**
 * PeriodoAsoc (10198–10208): only on notes; both dates, valid, from 2006-01-01, FchDesde
 * ≤ FchHasta ≤ CbteFch. The manual gives the codes as a range: each rule's number within it
 * and the texts are the simulator's.
 */
function checkPeriodoAsoc(c: DetailCheck, f: Findings): void {
  const p = c.detail.periodoAsoc;
  if (p === undefined) return;
  if (!NOTES.has(c.cbteTipo)) {
    f.reject(10198, "El objeto PeriodoAsoc solo puede informarse en Notas de Debito y Credito.");
    return;
  }
  if (p.fchDesde === "" || p.fchHasta === "") {
    f.reject(10199, "Si se informa PeriodoAsoc los campos FchDesde y FchHasta son obligatorios.");
    return;
  }
  const desdeOk = dayNumber(p.fchDesde) !== undefined;
  const hastaOk = dayNumber(p.fchHasta) !== undefined;
  if (!desdeOk) f.reject(10203, "Campo FchDesde de PeriodoAsoc con formato invalido (yyyymmdd).");
  if (!hastaOk) f.reject(10204, "Campo FchHasta de PeriodoAsoc con formato invalido (yyyymmdd).");
  if (!desdeOk || !hastaOk) return;
  if (p.fchDesde < PERIODO_MIN) {
    f.reject(10205, "Campo FchDesde de PeriodoAsoc debe ser igual o posterior al 20060101.");
  }
  if (p.fchHasta < PERIODO_MIN) {
    f.reject(10206, "Campo FchHasta de PeriodoAsoc debe ser igual o posterior al 20060101.");
  }
  if (p.fchDesde > p.fchHasta) {
    f.reject(10207, "Campo FchDesde de PeriodoAsoc debe ser menor o igual a FchHasta.");
  }
  if (p.fchHasta > c.fch) {
    f.reject(
      10208,
      "Campo FchHasta de PeriodoAsoc debe ser menor o igual a la fecha del comprobante.",
    );
  }
}

export function checkAsociados(c: DetailCheck, f: Findings): void {
  checkCbtesAsoc(c, f);
  checkPeriodoAsoc(c, f);
  if (
    NOTES.has(c.cbteTipo) &&
    !isFce(c.cbteTipo) &&
    (c.detail.cbtesAsoc ?? []).length === 0 &&
    c.detail.periodoAsoc === undefined
  ) {
    f.reject(
      10197,
      "Para Notas de Debito y Credito es obligatorio informar CbtesAsoc o PeriodoAsoc.",
    );
  }
}
