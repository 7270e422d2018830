import { makePageCursors } from "@pasarela/sealing";
import { serviceModule, startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import { loadConfig, type CatalogConfig } from "./config.js";
import type { CatalogDatabase } from "./db/database.js";
import { migrations, schema } from "./db/migrations/index.js";
import { catalogBindings } from "./service.js";

export { loadConfig, catalogConfigSchema as configSchema, type CatalogConfig } from "./config.js";
export { migrations, schema } from "./db/migrations/index.js";

/** Starts the catalog service on the bus; used by its ServiceModule below and by tests in-process. */
export async function startCatalog(
  config: CatalogConfig,
  logger?: Logger,
): Promise<RunningService<object>> {
  return startService<CatalogDatabase, object>({
    name: "catalog",
    settings: config,
    database: { schema, migrations },
    ...(logger ? { logger } : {}),
    start: ({ db }) =>
      Promise.resolve({
        bindings: catalogBindings({ db: db!.db, cursors: makePageCursors(config.CURSOR_KEY) }),
      }),
  });
}

/** catalog as a process runs it, alone or beside the other services: see `@pasarela/server`. */
export const catalogService = serviceModule("catalog", {
  config: loadConfig,
  start: startCatalog,
});
