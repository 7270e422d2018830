import { makePageCursors } from "@pasarela/sealing";
import { startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import type { CatalogConfig } from "./config.js";
import type { CatalogDatabase } from "./db/database.js";
import { migrations, schema } from "./db/migrations/index.js";
import { catalogBindings } from "./service.js";

export { loadConfig, catalogConfigSchema as configSchema, type CatalogConfig } from "./config.js";
export { migrations, schema } from "./db/migrations/index.js";

/** Starts the catalog service on the bus; used by main.ts and by tests in-process. */
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
