import type { Handler } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { Kysely } from "kysely";
import { applyOutcome } from "../flows/outcome.js";
import type { AccountingSettings } from "../flows/settings.js";
import type { BillingDatabase } from "../db/database.js";
import { isRejection } from "../domain/stored-answer.js";

/** `billing.factura.complete`: the issuance flow reports the answer it gave to an admission. */
export function makeFacturaComplete(deps: {
  db: Kysely<BillingDatabase>;
  settings: AccountingSettings;
}): Handler<typeof billing.facturaComplete> {
  return async (request, ctx) => {
    const final = request.outcome === "final";
    await applyOutcome(deps.db, {
      accountId: ctx.accountId,
      environment: request.environment,
      ref: request.attempt ?? ctx.requestId,
      idempotencyKey: request.idempotencyKey,
      outcome: request.outcome,
      authorized: final && request.answer?.kind === "authorized",
      answer: final ? request.answer : undefined,
      isRejection: final && isRejection(request.answer),
      at: deps.settings.now(),
      answered: true,
    });
    return ok({ recorded: true });
  };
}
