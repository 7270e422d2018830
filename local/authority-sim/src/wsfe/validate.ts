import { dayNumber } from "../time.js";
import { checkAsociados } from "./asociados.js";
import { checkFce } from "./fce.js";
import { findings } from "./findings.js";
import type { DetailCheck, Finding, Findings } from "./findings.js";
import { checkOpcionales } from "./opcionales.js";
import { checkReceptor } from "./receptor.js";
import {
  CONDICIONES_IVA,
  IVA_RATES,
  MONEDAS,
  NOTES,
  NO_BASE_SUM,
  TRIBUTOS,
  cbteClass,
  isFce,
} from "./tables.js";

const MSG_10242 =
  "El campo Condicion IVA receptor no es un valor valido. Consular metodo FEParamGetCondicionIvaReceptor";
const MSG_10246 =
  "Campo Condicion Frente al IVA del receptor es obligatorio conforme a lo reglamentado por la " +
  "Resolucion General Nro 5616. Para mas informacion consular metodo FEParamGetCondicionIvaReceptor";

const CONCEPTO_DS: Record<number, string> = {
  1: "1 - Productos",
  2: "2 - Servicios",
  3: "3 - Productos y Servicios",
};

/** The authority's sum tolerance: 0.01 per entry absolute, or 0.01% relative. */
function close(a: number, b: number, entries = 1): boolean {
  const diff = Math.abs(a - b);
  return diff <= 0.01 * Math.max(1, entries) + 1e-9 || diff <= Math.abs(b) * 0.0001;
}

/**
 * CbteFch windows (10016): N−5..N+5 for Concepto 1 and not past the current month,
 * N−10..N+10 for 2 and 3, N−5..N+1 for FCE invoices and N−5..N for FCE notes. The manual
 * gives one message for the rule, the recorded range one, so the month limit answers it too.
 */
function checkCbteFch(c: DetailCheck, f: Findings): void {
  const d = c.detail;
  const fchDay = dayNumber(c.fch);
  const todayDay = dayNumber(c.today) ?? 0;
  if (fchDay === undefined) {
    f.reject(10016, "Campo CbteFch con formato invalido (yyyymmdd).");
    return;
  }
  if (d.concepto < 1 || d.concepto > 3) return;
  const fce = isFce(c.cbteTipo);
  const [lo, hi] = fce ? [5, NOTES.has(c.cbteTipo) ? 0 : 1] : d.concepto === 1 ? [5, 5] : [10, 10];
  const pastMonth = !fce && d.concepto === 1 && c.fch.slice(0, 6) > c.today.slice(0, 6);
  if (fchDay < todayDay - lo || fchDay > todayDay + hi || pastMonth) {
    f.reject(
      10016,
      `Campo CbteFch Debe estar comprendido  en el  rango  N-${lo} y N+${hi} siendo N la fecha ` +
        `de envio del pedido  de autorizacion para ${CONCEPTO_DS[d.concepto] ?? ""}`,
    );
  }
}

function checkNumeracion(c: DetailCheck, f: Findings): void {
  const d = c.detail;
  const clase = cbteClass(c.cbteTipo);
  if (d.cbteDesde < 1 || d.cbteDesde > 99999999) {
    f.reject(10008, "Campo CbteDesde debe estar comprendido entre 1 y 99999999.");
  }
  if (d.cbteHasta < 1 || d.cbteHasta > 99999999) {
    f.reject(10010, "Campo CbteHasta debe estar comprendido entre 1 y 99999999.");
  }
  if (clase === "B" && !isFce(c.cbteTipo)) {
    if (d.cbteHasta < d.cbteDesde) {
      f.reject(10011, "Campo CbteHasta debe ser mayor o igual a CbteDesde.");
    } else if (d.cbteHasta > d.cbteDesde && (d.docTipo !== 99 || d.docNro !== 0)) {
      f.reject(
        10014,
        "Para informar un rango de comprobantes clase B, DocTipo debe ser 99 y DocNro 0.",
      );
    }
  } else if (d.cbteHasta !== d.cbteDesde) {
    f.reject(
      10012,
      "Campo CbteHasta debe ser igual a CbteDesde para el tipo de comprobante informado.",
    );
  }
}

function checkImportes(c: DetailCheck, f: Findings): void {
  const d = c.detail;
  const isC = cbteClass(c.cbteTipo) === "C";
  const amounts = [d.impTotal, d.impTotConc, d.impNeto, d.impOpEx, d.impTrib, d.impIva];
  if (amounts.some((x) => x < 0)) {
    f.reject(10043, "Los importes informados no pueden ser negativos.");
  }
  if (isC) {
    if (d.impTotConc !== 0) {
      f.reject(10043, "Para comprobantes tipo C el campo ImpTotConc debe ser igual a 0.");
    }
    if (d.impOpEx !== 0) {
      f.reject(10044, "Para comprobantes tipo C el campo ImpOpEx debe ser igual a 0.");
    }
    if (d.impIva !== 0) {
      f.reject(10047, "Para comprobantes tipo C el campo ImpIVA debe ser igual a 0.");
    }
  }
  const expectedTotal = isC
    ? d.impNeto + d.impTrib
    : d.impTotConc + d.impNeto + d.impOpEx + d.impTrib + d.impIva;
  if (!close(d.impTotal, expectedTotal)) {
    f.reject(
      10048,
      isC
        ? "El campo 'Importe Total' ImpTotal, debe ser igual  a la  suma de ImpNeto + ImpTrib."
        : "El campo 'Importe Total' ImpTotal, debe ser igual  a la  suma de ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA.",
    );
  }
}

function checkIva(c: DetailCheck, f: Findings): void {
  const d = c.detail;
  const iva = d.iva ?? [];
  if (cbteClass(c.cbteTipo) === "C") {
    if (d.iva !== undefined) {
      f.reject(10071, "Para comprobantes tipo C el objeto IVA no debe informarse.");
    }
    return;
  }
  if (d.impNeto > 0 && iva.length === 0) {
    f.reject(10070, "Si ImpNeto es mayor a 0 el objeto IVA es obligatorio.");
  }
  if (d.impIva > 0 && iva.length === 0) {
    f.reject(10018, "Si ImpIva es mayor a 0 el objeto IVA es obligatorio.");
  } else if (d.impIva === 0 && iva.some((i) => i.id !== 3)) {
    f.reject(10018, "Si ImpIva es igual a 0 el objeto Iva solo puede informar Id = 3 (0%).");
  }
  if (iva.length === 0) return;
  if (iva.some((i) => IVA_RATES[i.id] === undefined)) {
    f.reject(10019, "Campo Id de Iva invalido. Consultar metodo FEParamGetTiposIva.");
  }
  if (iva.some((i) => i.baseImp <= 0)) f.reject(10020, "Campo BaseImp de Iva debe ser mayor a 0.");
  if (iva.some((i) => i.importe < 0)) {
    f.reject(10021, "Campo Importe de Iva debe ser mayor o igual a 0.");
  }
  if (new Set(iva.map((i) => i.id)).size !== iva.length) {
    f.reject(10022, "No se puede repetir el Id de Iva. Informar un total por alicuota.");
  }
  const sumImporte = iva.reduce((s, i) => s + i.importe, 0);
  if (!close(sumImporte, d.impIva, iva.length)) {
    f.reject(10023, "El campo ImpIVA debe ser igual a la suma de los importes del objeto Iva.");
  }
  if (
    iva.some((i) => {
      const rate = IVA_RATES[i.id];
      return rate !== undefined && !close(i.importe, i.baseImp * rate);
    })
  ) {
    f.reject(
      10051,
      "El Importe de Iva informado no se corresponde con la BaseImp por la alicuota.",
    );
  }
  const sumBase = iva.reduce((s, i) => s + i.baseImp, 0);
  if (!NO_BASE_SUM.has(c.cbteTipo) && !close(sumBase, d.impNeto, iva.length)) {
    f.reject(10061, "La suma de BaseImp del objeto Iva debe ser igual al campo ImpNeto.");
  }
}

/** Tributes: 10024, 10025, 10026–10028 (no negative parts), 10029, 10042 (Desc). */
function checkTributos(c: DetailCheck, f: Findings): void {
  const d = c.detail;
  const tributos = d.tributos ?? [];
  if (d.impTrib > 0 !== tributos.length > 0) {
    f.reject(
      10024,
      d.impTrib > 0
        ? "Si ImpTrib es mayor a 0 el objeto Tributos es obligatorio."
        : "Si ImpTrib es igual a 0 el objeto Tributos no debe informarse.",
    );
    return;
  }
  if (tributos.length === 0) return;
  if (tributos.some((t) => !TRIBUTOS.some((x) => x.id === String(t.id)))) {
    f.reject(10025, "Campo Id de Tributo invalido. Consultar metodo FEParamGetTiposTributos.");
  }
  if (tributos.some((t) => t.baseImp < 0)) {
    f.reject(10026, "Campo BaseImp de Tributos debe ser mayor o igual a 0.");
  }
  if (tributos.some((t) => t.alic < 0)) {
    f.reject(10027, "Campo Alic de Tributos debe ser mayor o igual a 0.");
  }
  if (tributos.some((t) => t.importe < 0)) {
    f.reject(10028, "Campo Importe de Tributos debe ser mayor o igual a 0.");
  }
  const sum = tributos.reduce((s, t) => s + t.importe, 0);
  if (!close(sum, d.impTrib, tributos.length)) {
    f.reject(
      10029,
      "El campo ImpTrib debe ser igual a la suma de los importes del objeto Tributos.",
    );
  }
  const fce = isFce(c.cbteTipo);
  if (tributos.some((t) => (t.id === 99 || fce) && t.desc.trim() === "")) {
    f.reject(
      10042,
      "Campo Desc de Tributos es obligatorio si el Id de Tributo es 99 (Otro) o el comprobante es MiPyMEs (FCE).",
    );
  }
}

function checkServicios(c: DetailCheck, f: Findings): void {
  const d = c.detail;
  if (d.concepto !== 2 && d.concepto !== 3) return;
  // FCE notes carry FchVtoPago only when they annul: fce.ts judges it there.
  const needsVto = !(isFce(c.cbteTipo) && NOTES.has(c.cbteTipo));
  if (d.fchServDesde === "" || d.fchServHasta === "" || (needsVto && d.fchVtoPago === "")) {
    f.reject(
      10049,
      "Si el concepto es igual a 2 o 3 los campos FchServDesde, FchServHasta y FchVtoPago son obligatorios.",
    );
  } else if (
    dayNumber(d.fchServDesde) === undefined ||
    dayNumber(d.fchServHasta) === undefined ||
    (d.fchVtoPago !== "" && dayNumber(d.fchVtoPago) === undefined)
  ) {
    f.reject(
      10049,
      "Los campos FchServDesde, FchServHasta y FchVtoPago deben tener formato yyyymmdd.",
    );
  } else if (d.fchServDesde > d.fchServHasta) {
    f.reject(10032, "Campo FchServDesde debe ser menor o igual a FchServHasta.");
  } else if (d.fchVtoPago !== "" && d.fchVtoPago < c.fch) {
    f.reject(10036, "Campo FchVtoPago debe ser igual o posterior a la fecha del comprobante.");
  }
}

/**
 * Currency: 10037–10039, 10239, 10241, and against the rate FEParamGetCotizacion
 * publishes: 10119, a foreign MonCotiz more than 2% under or 400% over it (the manual's
 * "2%–400%", read as the allowed deviation, as WSFEX words its 1667), and 10240, with
 * CanMisMonExt S a MonCotiz more than 1 over it. A currency without a published rate is not
 * compared.
 */
function checkMoneda(c: DetailCheck, f: Findings): void {
  const d = c.detail;
  const monId = d.monId === "" ? "PES" : d.monId;
  if (!MONEDAS.some((m) => m.id === monId)) {
    f.reject(10037, "Campo MonId invalido. Consultar metodo FEParamGetTiposMonedas.");
  } else if (monId === "PES" && d.monCotiz !== undefined && d.monCotiz !== 1) {
    f.reject(10039, "Para MonId PES el campo MonCotiz debe ser igual a 1.");
  } else if (
    monId !== "PES" &&
    (d.monCotiz === undefined || d.monCotiz <= 0) &&
    d.canMisMonExt !== "S"
  ) {
    f.reject(10038, "Campo MonCotiz debe ser mayor a 0.");
  } else if (monId !== "PES" && d.monCotiz !== undefined && d.monCotiz > 0) {
    const official = c.known.officialRate(monId);
    if (official !== undefined) {
      if (d.canMisMonExt === "S") {
        if (d.monCotiz > official + 1) {
          f.reject(
            10240,
            `Si CanMisMonExt es S el campo MonCotiz no puede superar en mas de 1 a la cotizacion oficial (${official}).`,
          );
        }
      } else if (d.monCotiz < official * 0.98 || d.monCotiz > official * 5) {
        f.reject(
          10119,
          `Campo MonCotiz fuera de rango: debe estar comprendido entre un 2% menos y un 400% mas que la cotizacion oficial (${official}). Consultar metodo FEParamGetCotizacion.`,
        );
      }
    }
  }
  if (d.canMisMonExt !== "" && !["S", "N"].includes(d.canMisMonExt)) {
    f.reject(10239, "Campo CanMisMonExt solo admite los valores S o N.");
  } else if (monId === "PES" && d.canMisMonExt === "S") {
    f.reject(10241, "Para MonId PES el campo CanMisMonExt no debe informarse o debe ser N.");
  }
}

function checkCondicionIva(c: DetailCheck, f: Findings): void {
  const id = c.detail.condicionIvaReceptorId;
  if (id === undefined) {
    f.reject(10246, MSG_10246);
    return;
  }
  const cond = CONDICIONES_IVA.find((x) => x.id === id);
  const clase = cbteClass(c.cbteTipo);
  if (cond === undefined) f.reject(10242, MSG_10242);
  else if (clase !== undefined && !cond.clases.includes(clase)) {
    f.reject(
      10243,
      "El campo Condicion IVA receptor no es valido para la clase de comprobante informado. " +
        "Consular metodo FEParamGetCondicionIvaReceptor",
    );
  }
}

/** Actividades: 10218 empty wrapper, 10219 Id, 10220 not the issuer's, 10221 repeated. */
function checkActividades(c: DetailCheck, f: Findings): void {
  const ids = c.detail.actividades;
  if (ids === undefined) return;
  if (ids.length === 0) {
    f.reject(10218, "Si se informa el objeto Actividades debe informarse al menos una Actividad.");
    return;
  }
  if (ids.some((id) => id <= 0)) f.reject(10219, "Campo Id de Actividad invalido.");
  const own = new Set(c.known.person(c.cuit)?.actividades.map((a) => a.id) ?? []);
  if (ids.some((id) => id > 0 && !own.has(id))) {
    f.reject(
      10220,
      "La Actividad informada no se encuentra habilitada para el emisor. Consultar metodo FEParamGetActividades.",
    );
  }
  if (new Set(ids).size !== ids.length) f.reject(10221, "No se puede repetir el Id de Actividad.");
}

/**
 * Judges one detail. Rejections ("excluyentes") and the observations that come with a
 * CAE are both Obs of the detail; the voucher is rejected when any finding rejects.
 */
export function validateDetail(c: DetailCheck): Finding[] {
  const f = findings();
  if (![1, 2, 3].includes(c.detail.concepto)) {
    f.reject(10030, "Campo Concepto invalido. Consultar metodo FEParamGetTiposConcepto.");
  }
  checkCbteFch(c, f);
  checkNumeracion(c, f);
  checkReceptor(c, f);
  checkImportes(c, f);
  checkIva(c, f);
  checkTributos(c, f);
  checkServicios(c, f);
  checkMoneda(c, f);
  checkAsociados(c, f);
  checkOpcionales(c, f);
  checkFce(c, f);
  checkCondicionIva(c, f);
  checkActividades(c, f);
  return [...f.list];
}
