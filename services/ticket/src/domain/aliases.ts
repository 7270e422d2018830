import { randomBytes } from "node:crypto";

/**
 * An alias when the operator gives none: recognisable in the authority's web apps as the
 * gateway's, and unique enough that two registrations of one CUIT never share a CN.
 */
export function generateAlias(cuit: string): string {
  return `pasarela${cuit}${randomBytes(3).toString("hex")}`;
}

/** Sealing contexts: a sealed value opens only in the row and column it was written for. */
export const sealingContext = {
  privateKey: (certificateId: string) => `ticket.certificates:${certificateId}:private_key`,
  token: (certificateId: string, service: string) =>
    `ticket.access_tickets:${certificateId}:${service}:token`,
  sign: (certificateId: string, service: string) =>
    `ticket.access_tickets:${certificateId}:${service}:sign`,
};
