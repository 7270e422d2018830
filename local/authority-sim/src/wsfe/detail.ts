import type { FieldReader } from "../soap/asmx.js";
import type { XmlElement } from "../soap/xml.js";
import { isPosEnabled } from "../state.js";
import type { EnvState, FeVoucher, Pair } from "../state.js";
import { MAX_REG_X_REQ, seriesKey } from "./answer.js";
import type { DetailInput, Knowledge } from "./findings.js";
import { cbteClass, isFce } from "./tables.js";

/**
 * A FECAEDetRequest (or FECAEADetRequest, which extends it) as read, the state the rules judge
 * it against, and the voucher kept once it is authorized or informed.
 */

export function readDetail(r: FieldReader, d: XmlElement): DetailInput {
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
export function knowledge(env: EnvState): Knowledge {
  return {
    person: (cuit) => env.persons[cuit],
    officialRate: (monId) => env.cotizaciones[monId],
    voucher: (cuit, ptoVta, cbteTipo, nro) =>
      env.fe[seriesKey(cuit, ptoVta, cbteTipo)]?.vouchers[String(nro)],
    electronicPos: (cuit, ptoVta) => isPosEnabled(env, "wsfe", cuit, ptoVta),
  };
}

/** The voucher FECompConsultar will echo: the request as read, and the answer it got. */
export function storedVoucher(
  d: DetailInput,
  fch: string,
  observaciones: Pair[],
  answer: Pick<FeVoucher, "cae" | "caeFchVto" | "fchProceso" | "emisionTipo" | "cbteFchHsGen">,
): FeVoucher {
  return {
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
    observaciones,
    ...answer,
  };
}

/**
 * The header checks FECAESolicitar and FECAEARegInformativo share (the request present,
 * CantReg, PtoVta, CbteTipo), the first that fails; the point of sale is each one's own.
 */
export function cabErrors(c: {
  present: boolean;
  reqName: string;
  cantReg: number;
  sent: number;
  ptoVta: number;
  cbteTipo: number;
}): Pair[] {
  const errors: Pair[] = [];
  if (!c.present) {
    errors.push({ code: 10000, msg: `Campo ${c.reqName} no fue ingresado o esta mal formado.` });
  } else if (c.cantReg < 1 || c.cantReg > 9998) {
    errors.push({ code: 10001, msg: "Campo CantReg debe estar comprendido entre 1 y 9998." });
  } else if (c.cantReg !== c.sent) {
    errors.push({
      code: 10002,
      msg: "La cantidad de registros informada en CantReg no coincide con la cantidad de registros enviados en FeDetReq.",
    });
  } else if (c.cantReg > MAX_REG_X_REQ || (isFce(c.cbteTipo) && c.cantReg > 1)) {
    errors.push({
      code: 10003,
      msg: isFce(c.cbteTipo)
        ? "Para comprobantes MiPyMEs (FCE) solo puede informarse 1 (un) comprobante por requerimiento."
        : `Campo CantReg no puede superar la cantidad de registros por request (${MAX_REG_X_REQ}). Consultar metodo FECompTotXRequest.`,
    });
  }
  if (errors.length === 0 && (c.ptoVta < 1 || c.ptoVta > 99998)) {
    errors.push({ code: 10004, msg: "Campo PtoVta debe estar comprendido entre 1 y 99998." });
  }
  if (errors.length === 0 && c.cbteTipo <= 0) {
    errors.push({ code: 10006, msg: "Campo CbteTipo debe ser mayor a 0." });
  }
  if (errors.length === 0 && cbteClass(c.cbteTipo) === undefined) {
    errors.push({
      code: 10007,
      msg: "Campo CbteTipo no se encuentra habilitado para el emisor. Consultar metodo FEParamGetTiposCbte.",
    });
  }
  return errors;
}
