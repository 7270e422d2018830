import { trustAuthorityCa } from "@pasarela/authority";
import { serviceModule, startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import { makeWsaaAdapter } from "./adapters/wsaa.js";
import { loadConfig, type TicketConfig } from "./config.js";
import type { TicketDatabase } from "./db/database.js";
import { migrations, schema } from "./db/migrations/index.js";
import { makeSealer } from "./domain/sealing.js";
import { startCertificateExpiryCheck } from "./flows/certificado-avisos.js";
import { watchCertificateExpiry } from "./metrics/certificates.js";
import { ticketBindings } from "./service.js";

export { loadConfig, ticketConfigSchema as configSchema, type TicketConfig } from "./config.js";
export { migrations, schema } from "./db/migrations/index.js";

/** Starts the ticket service on the bus; used by its ServiceModule below and by tests in-process. */
export interface TicketOptions {
  /** the clock of certificate expiry notices (tests move it) */
  now?: () => Date;
}

/** What a test may drive of the running service. */
export interface TicketDeps {
  /** runs one round of the certificate expiry check now */
  checkExpiry: () => Promise<void>;
}

export async function startTicket(
  config: TicketConfig,
  logger?: Logger,
  options: TicketOptions = {},
): Promise<RunningService<TicketDeps>> {
  // the authority's HTTPS may come from a local stand-in with its own CA (the simulator's)
  if (config.AUTHORITY_CA_FILE) trustAuthorityCa(config.AUTHORITY_CA_FILE.pem);
  const sealer = makeSealer(config.KEY_ENCRYPTION_KEY);
  const wsaa = makeWsaaAdapter({
    urls: { homologacion: config.WSAA_URL_HOMOLOGACION, produccion: config.WSAA_URL_PRODUCCION },
    timeoutMs: config.AUTHORITY_TIMEOUT_MS,
  });
  return startService<TicketDatabase, TicketDeps>({
    name: "ticket",
    settings: config,
    database: { schema, migrations },
    ...(logger ? { logger } : {}),
    start: async ({ bus, db, logger: serviceLogger }) => {
      // certificate changes are announced on the EVENTS stream
      await bus.ensureEventStream();
      watchCertificateExpiry(db!.db);
      const expiry = startCertificateExpiryCheck({
        db: db!.db,
        bus,
        logger: serviceLogger,
        intervalMs: config.CERTIFICATE_EXPIRY_INTERVAL_MS,
        now: options.now ?? (() => new Date()),
      });
      return {
        checkExpiry: expiry.check,
        stop: expiry.stop,
        bindings: ticketBindings({
          db: db!.db,
          bus,
          sealer,
          wsaa,
          policy: {
            refreshAheadMs: config.TA_REFRESH_AHEAD_MS,
            minRemainingMs: config.TA_MIN_REMAINING_MS,
            retryAfterMs: config.TA_RETRY_AFTER_MS,
          },
          // a login is the signing, one WSAA call bounded by AUTHORITY_TIMEOUT_MS and one
          // write: a lease this long runs out only on a holder that died or hung
          lease: { leaseMs: config.AUTHORITY_TIMEOUT_MS + 15_000, pollMs: 100 },
        }),
      };
    },
  });
}

/** ticket as a process runs it, alone or beside the other services: see `@pasarela/server`. */
export const ticketService = serviceModule("ticket", {
  config: loadConfig,
  start: startTicket,
  announce(config, logger) {
    logger.info(
      {
        wsaa: {
          homologacion: config.WSAA_URL_HOMOLOGACION,
          produccion: config.WSAA_URL_PRODUCCION,
        },
      },
      "authority endpoints",
    );
  },
});
