import { lookup } from "node:dns/promises";
import { makeSealer } from "@pasarela/sealing";
import { startService, type RunningService } from "@pasarela/service";
import type { Logger } from "@pasarela/telemetry";
import type { WebhooksConfig } from "./config.js";
import type { WebhooksDatabase } from "./db/database.js";
import { migrations, schema } from "./db/migrations/index.js";
import { makeEndpointsRepository } from "./db/repositories/endpoints.js";
import { urlHostProblem, type Resolve } from "./domain/url.js";
import { webhooksBindings } from "./service.js";

export { loadConfig, webhooksConfigSchema as configSchema, type WebhooksConfig } from "./config.js";
export { migrations, schema } from "./db/migrations/index.js";

/** Every address the system resolver gives for a name, IPv4 and IPv6 alike. */
const systemResolve: Resolve = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Starts the webhooks service on the bus; used by main.ts and by tests in-process. */
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
    start: ({ db }) =>
      Promise.resolve({
        bindings: webhooksBindings({
          endpoints: makeEndpointsRepository(db!.db, makeSealer(config.KEY_ENCRYPTION_KEY)),
          urlProblem: config.WEBHOOKS_ALLOW_PRIVATE
            ? () => Promise.resolve(undefined)
            : (url) => urlHostProblem(url, resolve),
          now: () => new Date(),
        }),
      }),
  });
}
