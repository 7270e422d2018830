import type { mail } from "@pasarela/contracts";
import { comprobante as nombreCompleto, fecha } from "@pasarela/formato";

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
  // the voucher by the same name the panel and the PDF give it
  const comprobante = nombreCompleto(job);
  const vence = fecha(link.expiresAt);
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

/**
 * The Message-ID of a job's message: the job's id at the sender's domain, the same on every
 * delivery of that job. A job is sent again only when its instance died between the SMTP
 * server's acceptance and the report; the copy then carries the first one's Message-ID, which
 * mailbox providers and mail clients use to show one message. A message asked for again (a
 * new job) gets its own.
 */
export function messageIdOf(jobId: string, from: string): string {
  const domain = from.slice(from.lastIndexOf("@") + 1);
  return `<${jobId}@${domain}>`;
}
