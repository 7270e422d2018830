import { authorityNow } from "@pasarela/authority";
import { bind, type Binding, type Bus } from "@pasarela/bus";
import { ticket } from "@pasarela/contracts";
import type { Kysely } from "@pasarela/db";
import type { WsaaAdapter } from "./adapters/wsaa.js";
import type { TicketDatabase } from "./db/database.js";
import { makeAccessTicketsRepository } from "./db/repositories/access-tickets.js";
import { makeCertificatesRepository } from "./db/repositories/certificates.js";
import { makePerfilesRepository } from "./db/repositories/perfiles.js";
import { makeRepresentadasRepository } from "./db/repositories/representadas.js";
import type { Sealer } from "./domain/sealing.js";
import {
  makeAccessTicketFlow,
  type AccessPolicy,
  type LoginLeasePolicy,
} from "./flows/access-ticket.js";
import { makeAccessGet } from "./handlers/access-get.js";
import {
  makeCertificateCreate,
  makeCuentaCertificadoCreate,
} from "./handlers/certificate-create.js";
import { makeConexionVerify } from "./handlers/conexion-verify.js";
import {
  makeCuentaRepresentadaCreate,
  makeCuentaRepresentadaGet,
  makeCuentaRepresentadaList,
  makeCuentaRepresentadaUpdate,
  makeContingenciaList,
} from "./handlers/cuenta-representadas.js";
import { makeLogoGet, makePerfilGet, makePerfilSet } from "./handlers/perfil.js";
import { makeRepresentadaCreate } from "./handlers/representada-create.js";
import { makeRepresentadaGet } from "./handlers/representada-get.js";
import { makeRepresentadaList } from "./handlers/representada-list.js";

/** Wiring only: repositories, the WSAA adapter and handlers bound to their subjects. */
export function ticketBindings(deps: {
  db: Kysely<TicketDatabase>;
  bus: Pick<Bus, "publish">;
  sealer: Sealer;
  wsaa: WsaaAdapter;
  policy: AccessPolicy;
  lease: LoginLeasePolicy;
  now?: () => Date;
}): Binding[] {
  const representadas = makeRepresentadasRepository(deps.db);
  const certificates = makeCertificatesRepository(deps.db);
  const tickets = makeAccessTicketsRepository(deps.db);
  const perfiles = makePerfilesRepository(deps.db);
  const now = deps.now ?? (() => new Date());
  const { sealer } = deps;
  const accessGet = makeAccessGet(
    makeAccessTicketFlow({
      tickets,
      sealer,
      wsaa: deps.wsaa,
      policy: deps.policy,
      lease: deps.lease,
      // a TA's times are the authority's: judged by its clock, unless a test sets one
      now: deps.now ?? ((environment) => new Date(authorityNow(environment))),
    }),
  );
  const upload = { representadas, certificates, sealer, bus: deps.bus, now };
  const cuenta = { representadas, certificates, perfiles, now };
  return [
    bind(ticket.representadaCreate, makeRepresentadaCreate({ representadas, sealer })),
    bind(ticket.representadaList, makeRepresentadaList({ representadas, certificates })),
    bind(
      ticket.representadaGet,
      makeRepresentadaGet({ representadas, certificates, perfiles, now }),
    ),
    bind(ticket.perfilSet, makePerfilSet({ representadas, perfiles })),
    bind(ticket.perfilGet, makePerfilGet({ representadas, perfiles })),
    bind(ticket.logoGet, makeLogoGet({ representadas, perfiles })),
    bind(ticket.certificateCreate, makeCertificateCreate(upload)),
    bind(ticket.accessGet, accessGet),
    // the account's own: scoped by the bus header
    bind(ticket.cuentaRepresentadaList, makeCuentaRepresentadaList(cuenta)),
    bind(ticket.cuentaRepresentadaGet, makeCuentaRepresentadaGet(cuenta)),
    bind(ticket.cuentaRepresentadaCreate, makeCuentaRepresentadaCreate({ ...cuenta, sealer })),
    bind(ticket.cuentaRepresentadaUpdate, makeCuentaRepresentadaUpdate(cuenta)),
    bind(ticket.contingenciaList, makeContingenciaList({ representadas })),
    bind(ticket.cuentaCertificadoCreate, makeCuentaCertificadoCreate(upload)),
    bind(
      ticket.conexionVerify,
      makeConexionVerify({ representadas, certificates, accessGet, now }),
    ),
  ];
}
