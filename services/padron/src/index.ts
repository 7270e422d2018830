import {
  followCertificateChanges,
  makeAccessTicketCache,
  trustAuthorityCa,
  type AccessTicketCache,
} from "@pasarela/authority";
import { serviceModule, startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import { makePadronAdapter } from "./adapters/padron.js";
import { loadConfig, type PadronConfig } from "./config.js";
import { padronBindings } from "./service.js";

export { loadConfig, padronConfigSchema as configSchema, type PadronConfig } from "./config.js";

export interface PadronDeps {
  /** the caller-side TA cache: tests read or clear it */
  tickets: AccessTicketCache;
}

/**
 * Starts the padron service on the bus; used by its ServiceModule below and by tests in-process. Stateless
 * by choice (a short cache would be allowed): every lookup asks the registry, so a revoked
 * delegation or a changed record shows at once, and each metered lookup is one real one.
 */
export async function startPadron(
  config: PadronConfig,
  logger?: Logger,
): Promise<RunningService<PadronDeps>> {
  if (config.AUTHORITY_CA_FILE) trustAuthorityCa(config.AUTHORITY_CA_FILE.pem);
  return startService<never, PadronDeps>({
    name: "padron",
    settings: config,
    ...(logger ? { logger } : {}),
    start: ({ bus }) => {
      // one TA per certificate and registry service, reused until shortly before it expires
      const tickets = makeAccessTicketCache(bus);
      const certificates = followCertificateChanges(bus, tickets);
      const padron = makePadronAdapter({
        urls: {
          a13: {
            homologacion: config.PADRON_A13_URL_HOMOLOGACION,
            produccion: config.PADRON_A13_URL_PRODUCCION,
          },
          a10: {
            homologacion: config.PADRON_A10_URL_HOMOLOGACION,
            produccion: config.PADRON_A10_URL_PRODUCCION,
          },
          constancia: {
            homologacion: config.PADRON_CONSTANCIA_URL_HOMOLOGACION,
            produccion: config.PADRON_CONSTANCIA_URL_PRODUCCION,
          },
        },
        timeoutMs: config.AUTHORITY_TIMEOUT_MS,
        tickets,
      });
      return Promise.resolve({
        tickets,
        bindings: padronBindings({ padron }),
        stop: () => Promise.resolve(certificates.stop()),
      });
    },
  });
}

/** padron as a process runs it, alone or beside the other services: see `@pasarela/server`. */
export const padronService = serviceModule("padron", {
  config: loadConfig,
  start: startPadron,
  announce(config, logger) {
    logger.info(
      {
        homologacion: {
          a13: config.PADRON_A13_URL_HOMOLOGACION,
          a10: config.PADRON_A10_URL_HOMOLOGACION,
          constancia: config.PADRON_CONSTANCIA_URL_HOMOLOGACION,
        },
        produccion: {
          a13: config.PADRON_A13_URL_PRODUCCION,
          a10: config.PADRON_A10_URL_PRODUCCION,
          constancia: config.PADRON_CONSTANCIA_URL_PRODUCCION,
        },
      },
      "registry endpoints",
    );
  },
});
