import { makeSealer } from "@pasarela/sealing";
import { serviceModule, startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import { makeMercadoPagoProvider } from "./adapters/mercadopago.js";
import { loadConfig, type CobrosConfig } from "./config.js";
import type { CobrosDatabase } from "./db/database.js";
import { migrations, schema } from "./db/migrations/index.js";
import { makeCuentasRepository, makeNotificacionesRepository } from "./db/repositories/cuentas.js";
import { makeLinksRepository } from "./db/repositories/links.js";
import { cobrosBindings } from "./service.js";

export { loadConfig, cobrosConfigSchema as configSchema, type CobrosConfig } from "./config.js";
export { migrations, schema } from "./db/migrations/index.js";
export { signNotification } from "./domain/signature.js";

/** The public path Mercado Pago notifies an account's payments at (served by the edge). */
export const webhookPath = (accountId: string) => `/webhooks/mercadopago/${accountId}`;

/** Starts the cobros service on the bus; used by its ServiceModule below and by tests in-process. */
export async function startCobros(
  config: CobrosConfig,
  logger?: Logger,
): Promise<RunningService<object>> {
  return startService<CobrosDatabase, object>({
    name: "cobros",
    settings: config,
    database: { schema, migrations },
    ...(logger ? { logger } : {}),
    start: async ({ bus, db }) => {
      await bus.ensureEventStream();
      const base = config.COBROS_PUBLIC_URL.replace(/\/+$/, "");
      return {
        bindings: cobrosBindings({
          bus,
          links: makeLinksRepository(db!.db),
          cuentas: makeCuentasRepository(db!.db, makeSealer(config.KEY_ENCRYPTION_KEY)),
          notificaciones: makeNotificacionesRepository(db!.db),
          provider: makeMercadoPagoProvider(config.MERCADOPAGO_API_URL),
          webhookUrl: (accountId) => `${base}${webhookPath(accountId)}`,
        }),
      };
    },
  });
}

/** cobros as a process runs it, alone or beside the other services: see `@pasarela/server`. */
export const cobrosService = serviceModule("cobros", {
  config: loadConfig,
  start: startCobros,
  announce(config, logger) {
    logger.info(
      { mercadopago: config.MERCADOPAGO_API_URL, publicUrl: config.COBROS_PUBLIC_URL },
      "payment provider",
    );
  },
});
