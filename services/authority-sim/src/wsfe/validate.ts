import { isValidCuit } from "../cuit.js";
import type { AlicIva, CbteAsoc, FeDetailFields, Opcional, Pair, Tributo } from "../state.js";
import { dayNumber } from "../time.js";
import {
  ASSOCIABLE,
  CBTES_ASOC_ALLOWED,
  CONDICIONES_IVA,
  IVA_RATES,
  MONEDAS,
  NOTES,
  NO_BASE_SUM,
  TRIBUTOS,
  cbteClass,
  isFce,
} from "./tables.js";

/** A FECAEDetRequest as read: these fields are undefined when the request left them out. */
export interface DetailInput extends FeDetailFields {
  cbteFch: string | undefined;
  monCotiz: number | undefined;
  condicionIvaReceptorId: number | undefined;
  cbtesAsoc: CbteAsoc[] | undefined;
  tributos: Tributo[] | undefined;
  iva: AlicIva[] | undefined;
  opcionales: Opcional[] | undefined;
  periodoAsoc: boolean;
}

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

/** Per-voucher rejections ("excluyentes"), reported in the detail's Observaciones. */
export function validateDetail(args: {
  cuit: string;
  cbteTipo: number;
  today: string;
  fch: string;
  detail: DetailInput;
}): Pair[] {
  const { cuit, cbteTipo, detail: d, fch } = args;
  const obs: Pair[] = [];
  const add = (code: number, msg: string): void => {
    obs.push({ code, msg });
  };
  const clase = cbteClass(cbteTipo);
  const isC = clase === "C";

  if (![1, 2, 3].includes(d.concepto)) {
    add(10030, "Campo Concepto invalido. Consultar metodo FEParamGetTiposConcepto.");
  }
  const fchDay = dayNumber(fch);
  const todayDay = dayNumber(args.today) ?? 0;
  if (fchDay === undefined) {
    add(10016, "Campo CbteFch con formato invalido (yyyymmdd).");
  } else if (d.concepto >= 1 && d.concepto <= 3) {
    const [lo, hi] = isFce(cbteTipo)
      ? [5, NOTES.has(cbteTipo) ? 0 : 1]
      : d.concepto === 1
        ? [5, 5]
        : [10, 10];
    if (fchDay < todayDay - lo || fchDay > todayDay + hi) {
      add(
        10016,
        `Campo CbteFch Debe estar comprendido  en el  rango  N-${lo} y N+${hi} siendo N la fecha ` +
          `de envio del pedido  de autorizacion para ${CONCEPTO_DS[d.concepto] ?? ""}`,
      );
    }
  }
  if (d.cbteDesde < 1 || d.cbteDesde > 99999999) {
    add(10008, "Campo CbteDesde debe estar comprendido entre 1 y 99999999.");
  }
  if (d.cbteHasta < 1 || d.cbteHasta > 99999999) {
    add(10010, "Campo CbteHasta debe estar comprendido entre 1 y 99999999.");
  }
  if (clase === "B" && !isFce(cbteTipo)) {
    if (d.cbteHasta < d.cbteDesde)
      add(10011, "Campo CbteHasta debe ser mayor o igual a CbteDesde.");
    else if (d.cbteHasta > d.cbteDesde && (d.docTipo !== 99 || d.docNro !== 0)) {
      add(10014, "Para informar un rango de comprobantes clase B, DocTipo debe ser 99 y DocNro 0.");
    }
  } else if (d.cbteHasta !== d.cbteDesde) {
    add(10012, "Campo CbteHasta debe ser igual a CbteDesde para el tipo de comprobante informado.");
  }

  if ((clase === "A" || clase === "M") && d.docTipo !== 80) {
    add(10013, "Para comprobantes clase A y M el campo DocTipo debe ser igual a 80 (CUIT).");
  }
  if ([80, 86].includes(d.docTipo) && !isValidCuit(d.docNro)) {
    add(10015, "Campo DocNro invalido. El numero de CUIT/CUIL informado no es valido.");
  } else if (d.docTipo === 80 && String(d.docNro) === cuit) {
    add(10069, "El receptor del comprobante no puede ser igual al emisor.");
  }

  const amounts = [d.impTotal, d.impTotConc, d.impNeto, d.impOpEx, d.impTrib, d.impIva];
  if (amounts.some((x) => x < 0)) {
    add(10043, "Los importes informados no pueden ser negativos.");
  }
  if (isC) {
    if (d.impTotConc !== 0)
      add(10043, "Para comprobantes tipo C el campo ImpTotConc debe ser igual a 0.");
    if (d.impOpEx !== 0)
      add(10044, "Para comprobantes tipo C el campo ImpOpEx debe ser igual a 0.");
    if (d.impIva !== 0) add(10047, "Para comprobantes tipo C el campo ImpIVA debe ser igual a 0.");
  }
  const expectedTotal = isC
    ? d.impNeto + d.impTrib
    : d.impTotConc + d.impNeto + d.impOpEx + d.impTrib + d.impIva;
  if (!close(d.impTotal, expectedTotal)) {
    add(
      10048,
      isC
        ? "El campo 'Importe Total' ImpTotal, debe ser igual  a la  suma de ImpNeto + ImpTrib."
        : "El campo 'Importe Total' ImpTotal, debe ser igual  a la  suma de ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA.",
    );
  }

  const iva = d.iva ?? [];
  if (isC) {
    if (d.iva !== undefined)
      add(10071, "Para comprobantes tipo C el objeto IVA no debe informarse.");
  } else {
    if (d.impNeto > 0 && iva.length === 0) {
      add(10070, "Si ImpNeto es mayor a 0 el objeto IVA es obligatorio.");
    }
    if (d.impIva > 0 && iva.length === 0) {
      add(10018, "Si ImpIva es mayor a 0 el objeto IVA es obligatorio.");
    } else if (d.impIva === 0 && iva.some((i) => i.id !== 3)) {
      add(10018, "Si ImpIva es igual a 0 el objeto Iva solo puede informar Id = 3 (0%).");
    }
    if (iva.length > 0) {
      if (iva.some((i) => IVA_RATES[i.id] === undefined)) {
        add(10019, "Campo Id de Iva invalido. Consultar metodo FEParamGetTiposIva.");
      }
      if (iva.some((i) => i.baseImp <= 0)) add(10020, "Campo BaseImp de Iva debe ser mayor a 0.");
      if (iva.some((i) => i.importe < 0))
        add(10021, "Campo Importe de Iva debe ser mayor o igual a 0.");
      if (new Set(iva.map((i) => i.id)).size !== iva.length) {
        add(10022, "No se puede repetir el Id de Iva. Informar un total por alicuota.");
      }
      const sumImporte = iva.reduce((s, i) => s + i.importe, 0);
      if (!close(sumImporte, d.impIva, iva.length)) {
        add(10023, "El campo ImpIVA debe ser igual a la suma de los importes del objeto Iva.");
      }
      if (
        iva.some((i) => {
          const rate = IVA_RATES[i.id];
          return rate !== undefined && !close(i.importe, i.baseImp * rate);
        })
      ) {
        add(10051, "El Importe de Iva informado no se corresponde con la BaseImp por la alicuota.");
      }
      const sumBase = iva.reduce((s, i) => s + i.baseImp, 0);
      if (!NO_BASE_SUM.has(cbteTipo) && !close(sumBase, d.impNeto, iva.length)) {
        add(10061, "La suma de BaseImp del objeto Iva debe ser igual al campo ImpNeto.");
      }
    }
  }

  const tributos = d.tributos ?? [];
  if (d.impTrib > 0 !== tributos.length > 0) {
    add(
      10024,
      d.impTrib > 0
        ? "Si ImpTrib es mayor a 0 el objeto Tributos es obligatorio."
        : "Si ImpTrib es igual a 0 el objeto Tributos no debe informarse.",
    );
  } else if (tributos.length > 0) {
    if (tributos.some((t) => !TRIBUTOS.some((x) => x.id === String(t.id)))) {
      add(10025, "Campo Id de Tributo invalido. Consultar metodo FEParamGetTiposTributos.");
    }
    const sum = tributos.reduce((s, t) => s + t.importe, 0);
    if (!close(sum, d.impTrib, tributos.length)) {
      add(10029, "El campo ImpTrib debe ser igual a la suma de los importes del objeto Tributos.");
    }
  }

  if (d.concepto === 2 || d.concepto === 3) {
    if (d.fchServDesde === "" || d.fchServHasta === "" || d.fchVtoPago === "") {
      add(
        10049,
        "Si el concepto es igual a 2 o 3 los campos FchServDesde, FchServHasta y FchVtoPago son obligatorios.",
      );
    } else if (
      dayNumber(d.fchServDesde) === undefined ||
      dayNumber(d.fchServHasta) === undefined ||
      dayNumber(d.fchVtoPago) === undefined
    ) {
      add(
        10049,
        "Los campos FchServDesde, FchServHasta y FchVtoPago deben tener formato yyyymmdd.",
      );
    } else if (d.fchServDesde > d.fchServHasta) {
      add(10032, "Campo FchServDesde debe ser menor o igual a FchServHasta.");
    } else if (d.fchVtoPago < fch) {
      add(10036, "Campo FchVtoPago debe ser igual o posterior a la fecha del comprobante.");
    }
  }

  const monId = d.monId === "" ? "PES" : d.monId;
  if (!MONEDAS.some((m) => m.id === monId)) {
    add(10037, "Campo MonId invalido. Consultar metodo FEParamGetTiposMonedas.");
  } else if (monId === "PES" && d.monCotiz !== undefined && d.monCotiz !== 1) {
    add(10039, "Para MonId PES el campo MonCotiz debe ser igual a 1.");
  } else if (
    monId !== "PES" &&
    (d.monCotiz === undefined || d.monCotiz <= 0) &&
    d.canMisMonExt !== "S"
  ) {
    add(10038, "Campo MonCotiz debe ser mayor a 0.");
  }
  if (d.canMisMonExt !== "" && !["S", "N"].includes(d.canMisMonExt)) {
    add(10239, "Campo CanMisMonExt solo admite los valores S o N.");
  } else if (monId === "PES" && d.canMisMonExt === "S") {
    add(10241, "Para MonId PES el campo CanMisMonExt no debe informarse o debe ser N.");
  }

  if (d.cbtesAsoc !== undefined && !CBTES_ASOC_ALLOWED.has(cbteTipo)) {
    add(10040, "El tipo de comprobante informado no admite comprobantes asociados.");
  } else if (d.cbtesAsoc !== undefined) {
    const allowed = ASSOCIABLE[cbteTipo];
    if (allowed !== undefined && d.cbtesAsoc.some((c) => !allowed.has(c.tipo))) {
      add(
        10040,
        "Los comprobantes asociados informados no son validos para el tipo de comprobante.",
      );
    }
  }
  if (NOTES.has(cbteTipo) && (d.cbtesAsoc ?? []).length === 0 && !d.periodoAsoc) {
    add(10197, "Para Notas de Debito y Credito es obligatorio informar CbtesAsoc o PeriodoAsoc.");
  }

  if (d.condicionIvaReceptorId === undefined) {
    add(10246, MSG_10246);
  } else {
    const cond = CONDICIONES_IVA.find((c) => c.id === d.condicionIvaReceptorId);
    if (cond === undefined) add(10242, MSG_10242);
    else if (clase !== undefined && !cond.clases.includes(clase)) {
      add(
        10243,
        "El campo Condicion IVA receptor no es valido para la clase de comprobante informado. " +
          "Consular metodo FEParamGetCondicionIvaReceptor",
      );
    }
  }
  return obs;
}
