import { consumeDurable, done, type Bus, type Delivered, type Durable } from "@pasarela/bus";
import { wsfe, type billing, type EventOf } from "@pasarela/contracts";
import { authorityRejected } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { Kysely } from "kysely";
import type { BillingDatabase } from "../db/database.js";
import { makeQuotaRepository } from "../db/repositories/quota.js";
import { isRejection } from "../domain/stored-answer.js";
import { applyOutcome, type IssuanceOutcome } from "./outcome.js";
import { isMetered } from "./quota.js";

/** An outcome event as the attempt's outcome: what it replays, commits, releases and counts. */
export function outcomeOfEvent({ tipo, event }: billing.FacturaOutcomeEvent): IssuanceOutcome {
  const common = {
    accountId: event.accountId,
    environment: event.environment,
    ref: event.requestId,
    idempotencyKey: event.idempotencyKey,
    at: new Date(event.occurredAt),
    eventId: event.id,
  };
  switch (tipo) {
    case "autorizado": {
      const factura = event.answer ?? (event.reply && wsfe.issuedHttpReply(event.reply));
      return {
        ...common,
        outcome: "final",
        authorized: true,
        answer: factura === undefined ? undefined : { kind: "authorized", factura },
        isRejection: false,
      };
    }
    case "rechazado": {
      const { ptoVta, cbteTipo, cbteNro } = event;
      const rejected = authorityRejected(event);
      const error = event.answer ?? {
        ...rejected,
        details: { ...rejected.details, ptoVta, cbteTipo, cbteNro },
      };
      return {
        ...common,
        outcome: "final",
        authorized: false,
        answer: { kind: "error", error },
        isRejection: true,
      };
    }
    case "terminada": {
      const answer =
        event.error === undefined ? undefined : { kind: "error" as const, error: event.error };
      return {
        ...common,
        outcome: event.outcome,
        authorized: false,
        answer: event.outcome === "final" ? answer : undefined,
        isRejection: event.outcome === "final" && isRejection(answer),
      };
    }
  }
}

type OutcomeContract =
  | typeof wsfe.comprobanteAutorizado
  | typeof wsfe.comprobanteRechazado
  | typeof wsfe.emisionTerminada;

/**
 * A voucher issued in contingency and refused by the authority at informing counts toward
 * nothing: its production unit is given back, whether or not its authorization was applied
 * yet (a refusal applied first keeps the later commit from counting it).
 */
async function giveBackRefused(
  db: Kysely<BillingDatabase>,
  event: EventOf<typeof wsfe.comprobanteCaeaRechazado>,
): Promise<void> {
  if (!isMetered(event.environment)) return;
  await makeQuotaRepository(db).giveBack(event.requestId, {
    accountId: event.accountId,
    resource: "facturas",
    at: new Date(event.occurredAt),
  });
}

/** A delivered outcome event, tagged as the flow hands it over. */
function tagged(delivered: Delivered<OutcomeContract>): billing.FacturaOutcomeEvent {
  switch (delivered.contract.subject) {
    case wsfe.comprobanteAutorizado.subject:
      return {
        tipo: "autorizado",
        event: delivered.body as EventOf<typeof wsfe.comprobanteAutorizado>,
      };
    case wsfe.comprobanteRechazado.subject:
      return {
        tipo: "rechazado",
        event: delivered.body as EventOf<typeof wsfe.comprobanteRechazado>,
      };
    default:
      return { tipo: "terminada", event: delivered.body as EventOf<typeof wsfe.emisionTerminada> };
  }
}

/** outcome events taken at once by one round of a consumer */
const OUTCOME_BATCH = 10;

/**
 * Billing follows every issuance's outcome events (the vouchers' final states, and the ends
 * of attempts without one), so a crash between the authority's answer and the caller's
 * response still ends with the quota committed, the rejection counted and the idempotency
 * record complete, each exactly once. The same events are handed over by the issuance flow
 * (`billing.factura.settle`); whichever arrives first is applied, the other skipped by its id.
 * A contingency voucher refused at informing gives its unit back.
 */
export async function consumeOutcomeEvents(deps: {
  bus: Bus;
  db: Kysely<BillingDatabase>;
  logger: Logger;
}): Promise<Durable[]> {
  const handle = async (
    batch: readonly Delivered<OutcomeContract | typeof wsfe.comprobanteCaeaRechazado>[],
  ) => {
    for (const delivered of batch) {
      if (delivered.contract.subject === wsfe.comprobanteCaeaRechazado.subject) {
        await giveBackRefused(
          deps.db,
          delivered.body as EventOf<typeof wsfe.comprobanteCaeaRechazado>,
        );
      } else {
        await applyOutcome(
          deps.db,
          outcomeOfEvent(tagged(delivered as Delivered<OutcomeContract>)),
        );
      }
    }
    return done;
  };
  // a stop waits for the batch in hand, applied one transaction per event: a hundred of them
  // held billing's SIGTERM for most of its drain bound on a busy database
  const options = { maxBatch: OUTCOME_BATCH, logger: deps.logger, handle };
  return Promise.all([
    consumeDurable(
      deps.bus,
      [wsfe.comprobanteAutorizado, wsfe.comprobanteRechazado, wsfe.comprobanteCaeaRechazado],
      { durable: "billing-comprobantes", ...options },
    ),
    consumeDurable(deps.bus, [wsfe.emisionTerminada], { durable: "billing-emisiones", ...options }),
  ]);
}
