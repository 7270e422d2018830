import type { Handler } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { Kysely } from "kysely";
import type { BillingDatabase } from "../db/database.js";
import { outcomeOfEvent } from "../flows/outcome-events.js";
import { applyOutcome } from "../flows/outcome.js";

/**
 * `billing.factura.settle`: the issuance flow hands over the outcome event it published, which
 * is applied as its JetStream delivery would be; answers what the key replays from now on.
 */
export function makeFacturaSettle(deps: {
  db: Kysely<BillingDatabase>;
}): Handler<typeof billing.facturaSettle> {
  return async (request, ctx) => {
    // the flow acts for the account of the call: never for another one
    if (request.event.accountId !== ctx.accountId) return fail(appError("UNAUTHORIZED"));
    const answer = await applyOutcome(deps.db, outcomeOfEvent(request));
    return ok(answer === undefined ? {} : { answer });
  };
}
