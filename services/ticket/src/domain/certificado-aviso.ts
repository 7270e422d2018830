import { X509Certificate } from "node:crypto";
import { ticket, type EventOf } from "@pasarela/contracts";

const DAY_MS = 86_400_000;

/** A certificate's expiry notices, in the order they come: 30, 7 and 1 days left, expired. */
export type Aviso = "30" | "7" | "1" | "vencido";

/** Whole days left before `notAfter` (0 on its last day, negative once past it). */
export function diasRestantes(notAfter: Date, now: Date): number {
  return Math.trunc((notAfter.getTime() - now.getTime()) / DAY_MS) || 0;
}

/**
 * The notice a certificate is due at `now`: the tightest one it reached (expired, else the
 * smallest of 30/7/1 days with at most that many days left), unless that one was already
 * announced. A certificate first seen with 5 days left announces 7 only, never 30 after it.
 */
export function avisoDue(
  notAfter: Date,
  now: Date,
  announced: readonly string[],
): Aviso | undefined {
  const left = notAfter.getTime() - now.getTime();
  let reached: Aviso | undefined;
  if (left <= 0) reached = "vencido";
  else {
    for (const dias of ticket.CERTIFICADO_AVISO_DIAS) {
      if (left <= dias * DAY_MS) reached = String(dias) as Aviso;
    }
  }
  return reached !== undefined && !announced.includes(reached) ? reached : undefined;
}

/** What a notice says of the certificate and whose it is. */
export interface AvisoCertificado {
  readonly certificateId: string;
  readonly representadaId: string;
  readonly accountId: string;
  readonly cuit: string;
  readonly environment: "homologacion" | "produccion";
  readonly certificatePem: string;
  readonly fingerprint: string;
  readonly notAfter: Date;
}

export type AvisoEvent =
  EventOf<typeof ticket.certificadoPorVencer> | EventOf<typeof ticket.certificadoVencido>;

/** The event a notice is announced with; its id is one per certificate and notice. */
export function avisoEvent(aviso: Aviso, certificate: AvisoCertificado, now: Date): AvisoEvent {
  const common = {
    version: 1 as const,
    certificateId: certificate.certificateId,
    representadaId: certificate.representadaId,
    accountId: certificate.accountId,
    cuit: certificate.cuit,
    environment: certificate.environment,
    serialNumber: new X509Certificate(certificate.certificatePem).serialNumber.toUpperCase(),
    fingerprint: certificate.fingerprint,
    notAfter: certificate.notAfter.toISOString(),
    diasRestantes: diasRestantes(certificate.notAfter, now),
    occurredAt: now.toISOString(),
  };
  if (aviso === "vencido") return { id: `${certificate.certificateId}:vencido`, ...common };
  const umbral = Number(aviso) as 30 | 7 | 1;
  return { id: `${certificate.certificateId}:por_vencer:${umbral}`, ...common, umbral };
}
