import type { AuthorityMessage } from "../cae-answer.js";

/** A yyyymmdd day as dd/mm/aaaa. */
const dia = (day: string) => `${day.slice(6, 8)}/${day.slice(4, 6)}/${day.slice(0, 4)}`;

const codigos = (notes: readonly AuthorityMessage[]) =>
  notes.length === 0
    ? ["  (la AFIP no indicó códigos)"]
    : notes.map((n) => `  ${n.code}: ${n.msg}`);

/** What the owner's e-mail says about a contingency voucher the authority refused at informing. */
export interface AvisoCaeaRechazado {
  readonly destinatario: string;
  readonly cuenta: string;
  readonly environment: string;
  readonly representada: string;
  readonly ptoVta: number;
  readonly cbteTipo: number;
  readonly cbteNro: number;
  readonly cbteFch: string;
  readonly caea: string;
  readonly observaciones: readonly AuthorityMessage[];
  readonly errores: readonly AuthorityMessage[];
}

/**
 * The plain-text e-mail telling an account's owner that a voucher issued in contingency was
 * refused at informing, with the authority's codes, what it means for the numbers after it and
 * what to do.
 */
export function avisoCaeaRechazado(aviso: AvisoCaeaRechazado): { subject: string; text: string } {
  const numero = `${String(aviso.ptoVta).padStart(5, "0")}-${String(aviso.cbteNro).padStart(8, "0")}`;
  return {
    subject: `La AFIP rechazó el comprobante CAEA ${numero} (tipo ${aviso.cbteTipo}, ${aviso.representada})`,
    text: [
      `Hola, ${aviso.destinatario}:`,
      ``,
      `La AFIP rechazó al informarlo (FECAEARegInformativo) el comprobante tipo ${aviso.cbteTipo} ` +
        `${numero} del ${dia(aviso.cbteFch)}, emitido en contingencia con el CAEA ${aviso.caea} por ` +
        `${aviso.representada} en ${aviso.environment}, de la cuenta ${aviso.cuenta}.`,
      ``,
      `Observaciones de la AFIP:`,
      ...codigos(aviso.observaciones),
      `Errores de la AFIP:`,
      ...codigos(aviso.errores),
      ``,
      `El cliente ya tiene ese comprobante: quedó en estado caea_rechazado y no cuenta como ` +
        `autorizado. Corregilo ante la AFIP (o anulalo con una nota de crédito) antes de la fecha ` +
        `tope de información del CAEA.`,
      ``,
      `La AFIP sólo acepta cada número como el siguiente del último informado: los comprobantes ` +
        `CAEA posteriores de ese punto de venta y tipo quedan pendientes y la pasarela los informa ` +
        `sola, en orden, en cuanto la AFIP tenga informado el ${numero}.`,
    ].join("\n"),
  };
}

/** What the owner's e-mail says about a fortnight whose vouchers are near FchTopeInf uninformed. */
export interface AvisoCaeaPorVencer {
  readonly destinatario: string;
  readonly cuenta: string;
  readonly environment: string;
  readonly representada: string;
  readonly periodo: number;
  readonly orden: number;
  readonly fchTopeInf: string;
  /** how many of its vouchers are not informed yet */
  readonly pendientes: number;
}

/** The plain-text e-mail telling the owner that a CAEA's informing deadline is near. */
export function avisoCaeaPorVencer(aviso: AvisoCaeaPorVencer): { subject: string; text: string } {
  return {
    subject: `Comprobantes CAEA sin informar: vence el ${dia(aviso.fchTopeInf)} (${aviso.representada})`,
    text: [
      `Hola, ${aviso.destinatario}:`,
      ``,
      `${aviso.pendientes} comprobante(s) emitidos en contingencia con el CAEA del período ` +
        `${aviso.periodo}, orden ${aviso.orden}, de ${aviso.representada} en ${aviso.environment} ` +
        `(cuenta ${aviso.cuenta}) todavía no fueron informados a la AFIP, y el plazo para ` +
        `informarlos vence el ${dia(aviso.fchTopeInf)}.`,
      ``,
      `La pasarela los sigue informando sola. Si no avanzan: un comprobante rechazado al ` +
        `informarlo (caea_rechazado) detiene a los posteriores de su serie hasta que se ` +
        `regularice ante la AFIP, y un punto de venta que la AFIP no tiene como CAEA (701) no se ` +
        `puede informar. Lo que quede sin informar al vencer el plazo debe regularizarse ante la ` +
        `AFIP.`,
    ].join("\n"),
  };
}
