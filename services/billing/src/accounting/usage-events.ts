import { consumeEvents, type Bus, type DurableConsumer } from "@pasarela/bus";
import { billing, cobros } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { Kysely } from "kysely";
import type { BillingDatabase } from "../db/database.js";
import { makeUsageRepository } from "../db/repositories/usage.js";

/**
 * The usage history's writer: the edge publishes one event per call without waiting, and
 * billing inserts them here in batches of up to 500 rows per statement.
 */
export function consumeUsageEvents(deps: {
  bus: Bus;
  db: Kysely<BillingDatabase>;
  logger: Logger;
}): Promise<DurableConsumer> {
  const usage = makeUsageRepository(deps.db);
  return consumeEvents(deps.bus, {
    durable: "billing-uso",
    events: [billing.usoRegistrado],
    filter: "evt.edge.uso.>",
    maxBatch: 500,
    logger: deps.logger,
    handle: (batch) =>
      usage.insertMany(
        batch.map(({ body: e }) => ({
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
      ),
  });
}

/**
 * Paid payment links in the usage history (issue 15): one row per link, when the provider
 * confirmed the payment, with the voucher it collects and no API key.
 */
export function consumePaidLinks(deps: {
  bus: Bus;
  db: Kysely<BillingDatabase>;
  logger: Logger;
}): Promise<DurableConsumer> {
  const usage = makeUsageRepository(deps.db);
  return consumeEvents(deps.bus, {
    durable: "billing-cobros",
    events: [cobros.linkPagado],
    filter: "evt.cobros.link.>",
    maxBatch: 100,
    logger: deps.logger,
    handle: (batch) =>
      usage.insertMany(
        batch.map(({ body: e }) => ({
          id: e.linkId,
          account_id: e.accountId,
          key_id: null,
          at: e.pagadoAt,
          method: "EVENT",
          route: cobros.linkPagado.subject,
          environment: e.environment,
          representada: e.representada,
          status: 200,
          code: null,
          latency_ms: 0,
          quota_consumed: false,
        })),
      ),
  });
}
