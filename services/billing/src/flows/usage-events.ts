import { consumeDurable, done, type Bus, type Durable } from "@pasarela/bus";
import { billing, cobros } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { Kysely } from "kysely";
import type { BillingDatabase } from "../db/database.js";
import { makeUsageRepository, type UsageRepository } from "../db/repositories/usage.js";

/** Inserts calls into the history, once per id, in statements of at most 2,000 rows. */
async function insertCalls(
  usage: UsageRepository,
  calls: readonly billing.UsageCall[],
): Promise<void> {
  // bounded statements: one event round can carry 50,000 calls
  for (let i = 0; i < calls.length; i += 2_000) {
    await usage.insertMany(
      calls.slice(i, i + 2_000).map((e) => ({
        id: e.id,
        account_id: e.accountId,
        key_id: e.keyId,
        at: e.at,
        method: e.method,
        route: e.route,
        environment: e.environment,
        representada: e.representada,
        status: e.status,
        code: e.code,
        latency_ms: e.latencyMs,
        quota_consumed: e.quotaConsumed,
      })),
    );
  }
}

/**
 * The usage history's writer: the edge publishes the calls it answered in batches, and
 * billing inserts them here, up to 100 events (of up to 500 calls each) per round.
 */
export function consumeUsageEvents(deps: {
  bus: Bus;
  db: Kysely<BillingDatabase>;
  logger: Logger;
}): Promise<Durable> {
  const usage = makeUsageRepository(deps.db);
  return consumeDurable(deps.bus, [billing.usoRegistrado], {
    durable: "billing-uso",
    maxBatch: 100,
    logger: deps.logger,
    handle: async (batch) => {
      await insertCalls(
        usage,
        batch.flatMap(({ body }) => body.llamadas),
      );
      return done;
    },
  });
}

/**
 * Paid payment links in the usage history: one row per link, when the provider
 * confirmed the payment, with the voucher it collects and no API key.
 */
export function consumePaidLinks(deps: {
  bus: Bus;
  db: Kysely<BillingDatabase>;
  logger: Logger;
}): Promise<Durable> {
  const usage = makeUsageRepository(deps.db);
  return consumeDurable(deps.bus, [cobros.linkPagado], {
    durable: "billing-cobros",
    maxBatch: 100,
    logger: deps.logger,
    handle: async (batch) => {
      await insertCalls(
        usage,
        batch.map(({ body: e }) => ({
          id: e.linkId,
          accountId: e.accountId,
          keyId: null,
          at: e.pagadoAt,
          method: "EVENT",
          route: cobros.linkPagado.subject,
          environment: e.environment,
          representada: e.representada,
          status: 200,
          code: null,
          latencyMs: 0,
          quotaConsumed: false,
        })),
      );
      return done;
    },
  });
}
