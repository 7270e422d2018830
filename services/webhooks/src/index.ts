import { lookup } from "node:dns/promises";
import { makePageCursors, makeSealer } from "@pasarela/sealing";
import { serviceModule, startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import { failureWindowMs, loadConfig, type WebhooksConfig } from "./config.js";
import type { WebhooksDatabase } from "./db/database.js";
import { migrations, schema } from "./db/migrations/index.js";
import { makeEndpointsRepository } from "./db/repositories/endpoints.js";
import { makeEntregasRepository } from "./db/repositories/entregas.js";
import { makePruebasRepository } from "./db/repositories/pruebas.js";
import { checkDestino, urlHostProblem, type Destino, type Resolve } from "./domain/url.js";
import { startAvisos } from "./flows/avisos.js";
import { consumeAvisos } from "./flows/fuentes.js";
import { consumeComprobanteEvents } from "./flows/eventos.js";
import { startEntregaWorker } from "./flows/worker.js";
import { webhooksBindings } from "./service.js";

export { loadConfig, webhooksConfigSchema as configSchema, type WebhooksConfig } from "./config.js";
export { migrations, schema } from "./db/migrations/index.js";

/** Every address the system resolver gives for a name, IPv4 and IPv6 alike. */
const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Starts the webhooks service on the bus; used by its ServiceModule below and by tests in-process. */
export async function startWebhooks(
  config: WebhooksConfig,
  logger?: Logger,
  options: { resolve?: Resolve } = {},
): Promise<RunningService<object>> {
  const resolve = options.resolve ?? systemResolve;
  return startService<WebhooksDatabase, object>({
    name: "webhooks",
    settings: config,
    database: { schema, migrations },
    ...(logger ? { logger } : {}),
    start: async ({ db, bus, logger: serviceLogger }) => {
      const endpoints = makeEndpointsRepository(db!.db, makeSealer(config.KEY_ENCRYPTION_KEY));
      const entregas = makeEntregasRepository(db!.db);
      const urlProblem = config.WEBHOOKS_ALLOW_PRIVATE
        ? () => Promise.resolve(undefined)
        : (url: string) => urlHostProblem(url, resolve);
      // lifted, the system's own resolution is used and nothing is pinned
      const destino = config.WEBHOOKS_ALLOW_PRIVATE
        ? () => Promise.resolve<Destino>({})
        : (url: string) => checkDestino(url, resolve);
      const avisos = await startAvisos({ endpoints, bus, logger: serviceLogger });
      const worker = startEntregaWorker({
        entregas,
        endpoints,
        destino,
        logger: serviceLogger,
        concurrency: config.WEBHOOKS_CONCURRENCY,
        retryScale: config.WEBHOOKS_RETRY_SCALE,
        failureWindowMs: failureWindowMs(config),
        leaseMs: config.WEBHOOKS_LEASE_MS,
        disabled: () => avisos.wake(),
      });
      const comprobantes = await consumeComprobanteEvents({
        bus,
        entregas,
        logger: serviceLogger,
        queued: () => worker.wake(),
      });
      const fuentes = await consumeAvisos({
        bus,
        entregas,
        logger: serviceLogger,
        queued: () => worker.wake(),
      });
      return {
        bindings: webhooksBindings({
          endpoints,
          entregas,
          pruebas: makePruebasRepository(db!.db),
          // the cursors' own context keeps them apart from the secrets sealed with this key
          cursors: makePageCursors(config.KEY_ENCRYPTION_KEY),
          urlProblem,
          now: () => new Date(),
          wake: () => worker.wake(),
        }),
        stop: async () => {
          await Promise.all([comprobantes.stop(), fuentes.stop()]);
          await worker.stop();
          await avisos.stop();
        },
      };
    },
  });
}

/** webhooks as a process runs it, alone or beside the other services: see `@pasarela/server`. */
export const webhooksService = serviceModule("webhooks", {
  config: loadConfig,
  start: startWebhooks,
  announce(config, logger) {
    if (config.WEBHOOKS_ALLOW_PRIVATE) {
      logger.warn("WEBHOOKS_ALLOW_PRIVATE: endpoints on internal networks are accepted");
    }
  },
});
