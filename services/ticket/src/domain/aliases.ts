import { randomBytes } from "node:crypto";

/**
 * An alias when the operator gives none: recognisable in the authority's web apps as the
 * gateway's, and unique enough that two registrations of one CUIT never share a CN.
 */
export function generateAlias(cuit: string): string {
  return `pasarela${cuit}${randomBytes(3).toString("hex")}`;
}

/** What an access ticket belongs to: the authority keeps one TA per certificate and service. */
export interface TicketKey {
  readonly environment: string;
  /** SHA-256 of the certificate's DER, lower-case hex */
  readonly fingerprint: string;
  readonly service: string;
}

const ticketRow = (key: TicketKey) =>
  `ticket.access_tickets:${key.environment}:${key.fingerprint}:${key.service}`;

/** Sealing contexts: a sealed value opens only in the row and column it was written for. */
export const sealingContext = {
  privateKey: (certificateId: string) => `ticket.certificates:${certificateId}:private_key`,
  token: (key: TicketKey) => `${ticketRow(key)}:token`,
  sign: (key: TicketKey) => `${ticketRow(key)}:sign`,
};
