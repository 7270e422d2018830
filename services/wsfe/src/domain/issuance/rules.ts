import type { wsfe } from "@pasarela/contracts";
import { totalsInvalid, type AppError } from "@pasarela/errors";
import type { Receptor } from "./receptor.js";
import {
  ASSOCIABLE,
  ASSOCIATIONS_ALLOWED,
  CONDICIONES_POR_CLASE,
  isFce,
  isNote,
  type VoucherClass,
} from "./voucher-types.js";

/**
 * The receiver rules the authority rejects on: classes A and M and every FCE type go to a CUIT
 * [10013]; the VAT condition must be one the class admits [10243]; the receiver is never the
 * issuer [10069].
 */
export function receptorProblem(
  cbteTipo: number,
  clase: VoucherClass,
  receptor: Receptor,
  representada: string,
): AppError | undefined {
  if ((clase === "A" || clase === "M" || isFce(cbteTipo)) && receptor.docTipo !== 80) {
    return totalsInvalid(
      "docTipo",
      `debe ser 80 (CUIT) en el tipo ${cbteTipo}: los comprobantes ${isFce(cbteTipo) ? "FCE" : `clase ${clase}`} se emiten a una CUIT`,
      { docTipo: receptor.docTipo },
    );
  }
  const admitted = CONDICIONES_POR_CLASE[clase];
  if (!admitted.includes(receptor.condicionIvaReceptorId)) {
    return totalsInvalid(
      "condicionIvaReceptorId",
      `${receptor.condicionIvaReceptorId} no corresponde a comprobantes clase ${clase} (tipo ${cbteTipo}): condiciones admitidas ${admitted.join(", ")} (FEParamGetCondicionIvaReceptor)`,
      { condicionIvaReceptorId: receptor.condicionIvaReceptorId, admitted },
    );
  }
  if (receptor.docTipo === 80 && receptor.docNro === representada) {
    return totalsInvalid(
      "docNro",
      "no puede ser la CUIT de la representada: el receptor no puede ser el emisor",
    );
  }
  return undefined;
}

/**
 * Associated vouchers: a note names at least one voucher it adjusts, of a type it may associate
 * [10040], without repeats [10060]; FCE notes also give each one's issuer CUIT and date; other
 * types may carry associations only where the authority allows them.
 */
export function associatedProblem(
  cbteTipo: number,
  asociados: readonly wsfe.ComprobanteAsociado[],
): AppError | undefined {
  if (isNote(cbteTipo) && asociados.length === 0) {
    return totalsInvalid(
      "comprobantesAsociados",
      `debe tener al menos un comprobante: una nota de crédito o débito (tipo ${cbteTipo}) se asocia al comprobante que ajusta`,
    );
  }
  if (asociados.length > 0 && !ASSOCIATIONS_ALLOWED.has(cbteTipo)) {
    return totalsInvalid(
      "comprobantesAsociados",
      `no se admite en el tipo ${cbteTipo}: la AFIP solo acepta comprobantes asociados en facturas A, B, M y FCE y en notas de crédito y débito`,
    );
  }
  const associable = ASSOCIABLE[cbteTipo];
  const seen = new Set<string>();
  for (const [index, asociado] of asociados.entries()) {
    const field = `comprobantesAsociados.${index}`;
    if (associable !== undefined && !associable.includes(asociado.cbteTipo)) {
      return totalsInvalid(
        `${field}.cbteTipo`,
        `${asociado.cbteTipo} no puede asociarse a una nota tipo ${cbteTipo}: tipos asociables ${associable.join(", ")}`,
      );
    }
    const key = `${asociado.cbteTipo}-${asociado.ptoVta}-${asociado.cbteNro}-${asociado.cuit ?? ""}`;
    if (seen.has(key)) return totalsInvalid(field, "repite un comprobante asociado anterior");
    seen.add(key);
    if (isFce(cbteTipo) && isNote(cbteTipo)) {
      if (asociado.cuit === undefined) {
        return totalsInvalid(
          `${field}.cuit`,
          "es obligatorio en notas FCE: la CUIT del emisor del comprobante asociado",
        );
      }
      if (asociado.cbteFch === undefined) {
        return totalsInvalid(
          `${field}.cbteFch`,
          "es obligatorio en notas FCE: la fecha del comprobante asociado",
        );
      }
    }
  }
  return undefined;
}
