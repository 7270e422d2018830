import {
  followCertificateChanges,
  makeAccessTicketCache,
  trustAuthorityCa,
  makeWsfexAdapter,
  type AccessTicketCache,
} from "@pasarela/authority";
import { serviceModule, startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import { loadConfig, type WsfexConfig } from "./config.js";
import { wsfexBindings } from "./service.js";

export { loadConfig, wsfexConfigSchema as configSchema, type WsfexConfig } from "./config.js";

export interface WsfexDeps {
  /** the caller-side TA cache: tests and benchmarks read or clear it */
  tickets: AccessTicketCache;
}

/**
 * Starts the wsfex service on the bus; used by its ServiceModule below and by tests in-process. Stateless:
 * export vouchers are issued and stored by wsfe, which the lookup asks for a voucher's e-mail.
 */
export async function startWsfex(
  config: WsfexConfig,
  logger?: Logger,
): Promise<RunningService<WsfexDeps>> {
  // the authority's HTTPS may come from a local stand-in with its own CA (the simulator's)
  if (config.AUTHORITY_CA_FILE) trustAuthorityCa(config.AUTHORITY_CA_FILE.pem);
  return startService<never, WsfexDeps>({
    name: "wsfex",
    settings: config,
    ...(logger ? { logger } : {}),
    start: ({ bus }) => {
      const tickets = makeAccessTicketCache(bus);
      // a replaced certificate must stop reaching the authority on the next query
      const certificates = followCertificateChanges(bus, tickets);
      const wsfex = makeWsfexAdapter({
        urls: {
          homologacion: config.WSFEX_URL_HOMOLOGACION,
          produccion: config.WSFEX_URL_PRODUCCION,
        },
        timeoutMs: config.AUTHORITY_TIMEOUT_MS,
        tickets,
      });
      return Promise.resolve({
        tickets,
        bindings: wsfexBindings({ wsfex, bus }),
        stop: () => Promise.resolve(certificates.stop()),
      });
    },
  });
}

/** wsfex as a process runs it, alone or beside the other services: see `@pasarela/server`. */
export const wsfexService = serviceModule("wsfex", {
  config: loadConfig,
  start: startWsfex,
  announce(config, logger) {
    logger.info(
      { homologacion: config.WSFEX_URL_HOMOLOGACION, produccion: config.WSFEX_URL_PRODUCCION },
      "WSFEXv1 endpoints",
    );
  },
});
