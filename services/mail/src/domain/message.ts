import { numeroComprobante, type mail } from "@pasarela/contracts";

/** Spanish names of the voucher types, for subjects and bodies. */
const TIPOS: Record<number, string> = {
  1: "Factura A",
  2: "Nota de Débito A",
  3: "Nota de Crédito A",
  6: "Factura B",
  7: "Nota de Débito B",
  8: "Nota de Crédito B",
  11: "Factura C",
  12: "Nota de Débito C",
  13: "Nota de Crédito C",
  51: "Factura M",
  52: "Nota de Débito M",
  53: "Nota de Crédito M",
  201: "Factura de Crédito Electrónica MiPyMEs A",
  202: "Nota de Débito Electrónica MiPyMEs A",
  203: "Nota de Crédito Electrónica MiPyMEs A",
  206: "Factura de Crédito Electrónica MiPyMEs B",
  207: "Nota de Débito Electrónica MiPyMEs B",
  208: "Nota de Crédito Electrónica MiPyMEs B",
  211: "Factura de Crédito Electrónica MiPyMEs C",
  212: "Nota de Débito Electrónica MiPyMEs C",
  213: "Nota de Crédito Electrónica MiPyMEs C",
};

export function tipoComprobante(cbteTipo: number): string {
  return TIPOS[cbteTipo] ?? `Comprobante tipo ${cbteTipo}`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface ComprobanteMessage {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** The e-mail of one voucher: plain text and HTML saying the same, in Spanish. */
export function comprobanteMessage(
  job: Pick<mail.ComprobanteJob, "ptoVta" | "cbteTipo" | "cbteNro" | "asunto" | "mensaje">,
  emisor: string,
  link: { url: string; expiresAt: string },
): ComprobanteMessage {
  const comprobante = `${tipoComprobante(job.cbteTipo)} ${numeroComprobante(job.ptoVta, job.cbteNro)}`;
  const vence = link.expiresAt.slice(0, 10).split("-").reverse().join("/");
  const intro = job.mensaje ?? `Te enviamos el comprobante ${comprobante} emitido por ${emisor}.`;
  const text = [
    intro,
    "",
    `Comprobante: ${comprobante}`,
    `Emisor: ${emisor}`,
    "",
    "Adjuntamos el comprobante en PDF. También podés verlo o descargarlo desde este link:",
    link.url,
    `(el link vence el ${vence})`,
    "",
    "Saludos,",
    emisor,
  ].join("\n");
  const html = `<!doctype html>
<html lang="es"><body>
<p>${escapeHtml(intro).replace(/\n/g, "<br>")}</p>
<p><strong>Comprobante:</strong> ${escapeHtml(comprobante)}<br><strong>Emisor:</strong> ${escapeHtml(emisor)}</p>
<p>Adjuntamos el comprobante en PDF. También podés <a href="${escapeHtml(link.url)}">verlo o descargarlo desde este link</a> (vence el ${vence}).</p>
<p>Saludos,<br>${escapeHtml(emisor)}</p>
</body></html>`;
  return { subject: job.asunto ?? `${comprobante} de ${emisor}`, text, html };
}
