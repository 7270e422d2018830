import {
  followCertificateChanges,
  makeAccessTicketCache,
  trustAuthorityCa,
  type AccessTicketCache,
} from "@pasarela/authority";
import { startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import { makeWsfeAdapter } from "./adapters/wsfe.js";
import type { WsfeConfig } from "./config.js";
import type { WsfeDatabase } from "./db/database.js";
import { migrations, schema } from "./db/migrations/index.js";
import {
  makeComprobantesEmailRepository,
  type ComprobantesEmailRepository,
} from "./db/repositories/comprobantes-email.js";
import { wsfeBindings } from "./service.js";

export { loadConfig, type WsfeConfig } from "./config.js";

export interface WsfeDeps {
  /** the caller-side TA cache: tests and benchmarks read or clear it */
  tickets: AccessTicketCache;
  /** e-mail records of vouchers; issuance writes them, tests seed them */
  emails: ComprobantesEmailRepository;
}

/** Starts the wsfe service on the bus; used by main.ts and by tests in-process. */
export async function startWsfe(
  config: WsfeConfig,
  logger?: Logger,
): Promise<RunningService<WsfeDeps>> {
  // the authority's HTTPS may come from a local stand-in with its own CA (the simulator's)
  if (config.AUTHORITY_CA_FILE) trustAuthorityCa(config.AUTHORITY_CA_FILE.pem);
  return startService<WsfeDatabase, WsfeDeps>({
    name: "wsfe",
    settings: config,
    database: { schema, migrations },
    ...(logger ? { logger } : {}),
    start: ({ bus, db }) => {
      const tickets = makeAccessTicketCache(bus);
      // a replaced certificate must stop reaching the authority on the next query
      const certificates = followCertificateChanges(bus, tickets);
      const wsfe = makeWsfeAdapter({
        urls: {
          homologacion: config.WSFE_URL_HOMOLOGACION,
          produccion: config.WSFE_URL_PRODUCCION,
        },
        timeoutMs: config.AUTHORITY_TIMEOUT_MS,
        tickets,
      });
      const emails = makeComprobantesEmailRepository(db!.db);
      return Promise.resolve({
        tickets,
        emails,
        bindings: wsfeBindings({ emails, bus, wsfe }),
        stop: () => Promise.resolve(certificates.stop()),
      });
    },
  });
}
