import { ticket } from "@pasarela/contracts";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The dashboard's word for the representada's current key/certificate: the CSR
 * alone is `pendiente`; an active certificate is `vencido` past notAfter, `por_vencer` within
 * CERTIFICATE_EXPIRING_DAYS of it, `activo` otherwise. Undefined when there is none to show.
 */
export function certificadoEstado(
  current: { status: string; not_after: Date | null } | undefined,
  now: Date,
): ticket.CertificadoEstado | undefined {
  if (!current) return undefined;
  if (current.status === "pending") return "pendiente";
  if (current.status !== "active") return undefined;
  if (current.not_after === null) return "activo";
  const left = current.not_after.getTime() - now.getTime();
  if (left <= 0) return "vencido";
  return left < ticket.CERTIFICATE_EXPIRING_DAYS * DAY_MS ? "por_vencer" : "activo";
}

/**
 * The CUITs an access ticket lets its certificate act for: the `key`s of the token's
 * `<relations>`. Undefined when the token is not the XML it should be:
 * then the business service, not the probe, has the last word.
 */
export function tokenRelations(token: string): string[] | undefined {
  let xml: string;
  try {
    xml = Buffer.from(token, "base64").toString("utf8");
  } catch {
    return undefined;
  }
  const block = /<relations>([\s\S]*?)<\/relations>/.exec(xml)?.[1];
  if (block === undefined) return undefined;
  return [...block.matchAll(/<relation\b[^>]*\bkey="(\d{11})"/g)].map((match) => match[1]!);
}
