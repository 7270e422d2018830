import { consumeDurable, done, type Bus, type Delivered, type Durable } from "@pasarela/bus";
import { wsfe, type EventOf } from "@pasarela/contracts";
import { authorityRejected } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { Kysely } from "kysely";
import type { BillingDatabase } from "../db/database.js";
import { applyOutcome, type IssuanceOutcome } from "./outcome.js";

type VoucherEvent = typeof wsfe.comprobanteAutorizado | typeof wsfe.comprobanteRechazado;

/** A voucher's final state as the outcome of the issuance attempt that sent it. */
export function outcomeOfEvent(event: Delivered<VoucherEvent>): IssuanceOutcome {
  const common = {
    accountId: event.body.accountId,
    environment: event.body.environment,
    ref: event.body.requestId,
    idempotencyKey: event.body.idempotencyKey,
    outcome: "final" as const,
    at: new Date(event.body.occurredAt),
    eventId: event.body.id,
  };
  const voucher = {
    ptoVta: event.body.ptoVta,
    cbteTipo: event.body.cbteTipo,
    cbteNro: event.body.cbteNro,
  };
  if (event.contract.subject === wsfe.comprobanteAutorizado.subject) {
    const body = event.body as EventOf<typeof wsfe.comprobanteAutorizado>;
    return {
      ...common,
      authorized: true,
      answer:
        body.reply === undefined
          ? undefined
          : { kind: "authorized", factura: wsfe.facturaHttpReply(body.reply) },
      isRejection: false,
    };
  }
  const body = event.body as EventOf<typeof wsfe.comprobanteRechazado>;
  const error = authorityRejected(body);
  return {
    ...common,
    authorized: false,
    answer: { kind: "error", error: { ...error, details: { ...error.details, ...voucher } } },
    isRejection: true,
  };
}

/**
 * Billing follows every voucher's final state from its events, so a
 * crash between the authority's answer and the caller's response still ends with the quota
 * committed, the rejection counted and the idempotency record complete, each exactly once.
 */
export function consumeVoucherEvents(deps: {
  bus: Bus;
  db: Kysely<BillingDatabase>;
  logger: Logger;
}): Promise<Durable> {
  return consumeDurable(deps.bus, [wsfe.comprobanteAutorizado, wsfe.comprobanteRechazado], {
    durable: "billing-comprobantes",
    maxBatch: 100,
    logger: deps.logger,
    handle: async (batch) => {
      for (const event of batch) await applyOutcome(deps.db, outcomeOfEvent(event));
      return done;
    },
  });
}
