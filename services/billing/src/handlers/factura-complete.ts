import type { Handler } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { Kysely } from "kysely";
import { applyOutcome } from "../accounting/outcome.js";
import type { AccountingSettings } from "../accounting/settings.js";
import type { BillingDatabase } from "../db/database.js";

/** The 422s the rejection cap counts, issuance rejections: the authority's and the totals rules. */
export const REJECTION_CODES: ReadonlySet<string> = new Set([
  "AUTHORITY_REJECTED",
  "TOTALS_INVALID",
]);

/** `billing.factura.complete`: the edge reports the answer it gave to an admitted issuance. */
export function makeFacturaComplete(deps: {
  db: Kysely<BillingDatabase>;
  settings: AccountingSettings;
}): Handler<typeof billing.facturaComplete> {
  return async (request, ctx) => {
    await applyOutcome(deps.db, {
      accountId: ctx.accountId,
      environment: request.environment,
      ref: request.attempt ?? ctx.requestId,
      idempotencyKey: request.idempotencyKey,
      outcome: request.outcome,
      status: request.status,
      body: request.body,
      isRejection:
        request.outcome === "final" &&
        request.status === 422 &&
        REJECTION_CODES.has(request.code ?? ""),
      at: deps.settings.now(),
      answered: true,
    });
    return ok({ recorded: true });
  };
}
