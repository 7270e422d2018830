import type { Migration } from "@pasarela/db";
import * as representadasCertificatesTickets from "./2026-11-22-01-representadas-certificates-tickets.js";
import * as accessTicketLoginLease from "./2026-11-23-01-access-ticket-login-lease.js";
import * as representadaPerfiles from "./2026-12-10-01-representada-perfiles.js";
import * as perfilEmail from "./2026-12-11-01-perfil-email.js";
import * as perfilLogos from "./2026-12-20-01-perfil-logos.js";
import * as certificadoAvisos from "./2026-12-21-01-certificado-avisos.js";
import * as contingencia from "./2027-01-04-01-contingencia.js";

export const schema = "ticket";

/** In order; names are dated so they sort as they were written. */
export const migrations: Record<string, Migration> = {
  "2026-11-22-01-representadas-certificates-tickets": representadasCertificatesTickets,
  "2026-11-23-01-access-ticket-login-lease": accessTicketLoginLease,
  "2026-12-10-01-representada-perfiles": representadaPerfiles,
  "2026-12-11-01-perfil-email": perfilEmail,
  "2026-12-20-01-perfil-logos": perfilLogos,
  "2026-12-21-01-certificado-avisos": certificadoAvisos,
  "2027-01-04-01-contingencia": contingencia,
};
