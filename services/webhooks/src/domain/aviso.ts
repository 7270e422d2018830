import { createHash } from "node:crypto";

/** What the owner's e-mail says about an endpoint the service disabled. */
export interface AvisoDesactivacion {
  readonly webhookId: string;
  readonly url: string;
  readonly descripcion: string | null;
  readonly fallandoDesde: Date;
  readonly desactivadoAt: Date;
  readonly motivo: string;
  readonly destinatario: string;
  readonly cuenta: string;
}

/** A date as the e-mail shows it: UTC, to the minute, without ambiguity. */
const fecha = (at: Date): string => `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Hours or days, rounded, of a failing period: "3 días", "5 horas", "12 minutos". */
export function duracion(ms: number): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes < 120) return minutes === 1 ? "1 minuto" : `${minutes} minutos`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} horas`;
  return `${Math.round(hours / 24)} días`;
}

/** The reason kept with a disabled endpoint (shown as `desactivadoMotivo`). */
export function motivoDesactivacion(fallandoDesde: Date, at: Date, ultimoError: string): string {
  return (
    `Sus entregas fallaron sin interrupción durante ${duracion(at.getTime() - fallandoDesde.getTime())} ` +
    `(desde ${fecha(fallandoDesde)}). Último intento: ${ultimoError}`
  );
}

/** The plain-text e-mail telling an account's owner that an endpoint was disabled. */
export function avisoDesactivacion(aviso: AvisoDesactivacion): { subject: string; text: string } {
  const nombre = aviso.descripcion ? `${aviso.url} (${aviso.descripcion})` : aviso.url;
  return {
    subject: `Webhook desactivado: ${aviso.url}`.slice(0, 300),
    text: [
      `Hola, ${aviso.destinatario}:`,
      ``,
      `Desactivamos el webhook ${nombre} de la cuenta ${aviso.cuenta}, porque todas sus ` +
        `entregas fallaron desde ${fecha(aviso.fallandoDesde)} hasta ${fecha(aviso.desactivadoAt)}.`,
      ``,
      `Id del webhook: ${aviso.webhookId}`,
      `Falla desde: ${fecha(aviso.fallandoDesde)}`,
      `Desactivado: ${fecha(aviso.desactivadoAt)}`,
      `Motivo: ${aviso.motivo}`,
      ``,
      `Mientras esté desactivado no recibe eventos nuevos. Las entregas que quedaron pendientes ` +
        `se reanudan al reactivarlo; las que ya se dieron por fallidas pueden reenviarse con ` +
        `POST /api/webhooks/${aviso.webhookId}/entregas/{entregaId}/reenviar.`,
      ``,
      `Cuando el receptor vuelva a responder con un estado 2xx, reactivalo con:`,
      ``,
      `  PATCH /api/webhooks/${aviso.webhookId}`,
      `  {"activo": true}`,
      ``,
      `(con una API key de lectura y escritura), o desde la sección Webhooks del panel.`,
    ].join("\n"),
  };
}

/**
 * The mail job's id for one disabling: the same for the same endpoint and moment, so a
 * second publication of the same e-mail is dropped by the queue.
 */
export function avisoJobId(webhookId: string, desactivadoAt: Date): string {
  const hex = createHash("sha256")
    .update(`webhooks:aviso:${webhookId}:${desactivadoAt.toISOString()}`)
    .digest("hex");
  // shaped as a version 5 UUID (name-based), as the job's id must be
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
