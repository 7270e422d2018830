import { createHash } from "node:crypto";

/** What the owner's e-mail says about a fortnight without its CAEA. */
export interface AvisoCaeaFaltante {
  readonly destinatario: string;
  readonly cuenta: string;
  readonly environment: string;
  readonly representada: string;
  readonly periodo: number;
  readonly orden: 1 | 2;
  readonly fchVigDesde: string;
  readonly fchVigHasta: string;
}

/** A yyyymmdd day as dd/mm/aaaa. */
const dia = (day: string) => `${day.slice(6, 8)}/${day.slice(4, 6)}/${day.slice(0, 4)}`;

/** The plain-text e-mail telling an account's owner that a fortnight's CAEA is missing. */
export function avisoCaeaFaltante(aviso: AvisoCaeaFaltante): { subject: string; text: string } {
  const quincena = `${dia(aviso.fchVigDesde)} al ${dia(aviso.fchVigHasta)}`;
  return {
    subject: `Sin CAEA para la quincena del ${quincena} (${aviso.representada})`,
    text: [
      `Hola, ${aviso.destinatario}:`,
      ``,
      `La AFIP todavía no otorgó el CAEA de la quincena del ${quincena} (período ` +
        `${aviso.periodo}, orden ${aviso.orden}) para ${aviso.representada} en ${aviso.environment}, ` +
        `de la cuenta ${aviso.cuenta}. La pasarela lo sigue pidiendo; mientras no lo tenga, si la ` +
        `AFIP no responde, los comprobantes no podrán emitirse en contingencia con CAEA.`,
      ``,
      `Revisá que el certificado de la representada esté vigente y delegado para wsfe, y que sus ` +
        `puntos de venta CAEA sigan habilitados en la AFIP. El estado del CAEA de cada quincena ` +
        `está en GET /api/representadas/{id} y en el panel.`,
    ].join("\n"),
  };
}

/** The e-mail job's id: one per event, shaped as a version 5 UUID, as a job's id must be. */
export function avisoJobId(eventId: string): string {
  const hex = createHash("sha256").update(`wsfe:caea:${eventId}`).digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
