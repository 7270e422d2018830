import type { Handler } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { Kysely } from "kysely";
import type { BillingDatabase } from "../db/database.js";
import { makeIdempotencyRepository } from "../db/repositories/idempotency.js";
import type { AccountingSettings } from "../flows/settings.js";

/**
 * `billing.factura.hold`: the attempt of the call's request id keeps its Idempotency-Key for
 * another lease, while the key is still bound to it and its lease has not lapsed.
 */
export function makeFacturaHold(deps: {
  db: Kysely<BillingDatabase>;
  settings: AccountingSettings;
}): Handler<typeof billing.facturaHold> {
  return async ({ idempotencyKey }, ctx) => {
    const now = deps.settings.now();
    const held = await makeIdempotencyRepository(deps.db).hold({
      accountId: ctx.accountId,
      key: idempotencyKey,
      requestId: ctx.requestId,
      now,
      lockedUntil: new Date(now.getTime() + deps.settings.issuanceLeaseMs),
    });
    return ok({ held });
  };
}
