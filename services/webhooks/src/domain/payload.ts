import { createHash } from "node:crypto";
import { wsfe, type EventOf, type webhooks } from "@pasarela/contracts";
import { authorityRejected } from "@pasarela/errors";

/** The webhook events this service delivers, each from one bus event. */
export type TipoEntregado = Exclude<webhooks.WebhookEvento, "*">;

/** What a receiver gets in the body of every delivery of one event. */
export interface WebhookPayload {
  /** the `webhook-id` too: one per event, the same on every attempt and every endpoint */
  readonly id: string;
  readonly tipo: TipoEntregado;
  readonly createdAt: string;
  /** the environment the fact belongs to; absent for facts of the account (its quota) */
  readonly environment?: string;
  readonly data: unknown;
}

/** A bus event as the deliveries it becomes: for whom, de-duplicated on what, carrying what. */
export interface EventoEntregable {
  readonly accountId: string;
  /** the bus event's id: one delivery per endpoint and event id, whatever redelivers it */
  readonly eventId: string;
  readonly payload: WebhookPayload;
}

export type ComprobanteEvent =
  | {
      readonly tipo: "comprobante.autorizado";
      readonly event: EventOf<typeof wsfe.comprobanteAutorizado>;
    }
  | {
      readonly tipo: "comprobante.rechazado";
      readonly event: EventOf<typeof wsfe.comprobanteRechazado>;
    }
  | {
      readonly tipo: "comprobante.no_emitido";
      readonly event: EventOf<typeof wsfe.comprobanteNoEmitido>;
    };

/**
 * The payload id of a bus event: a digest of its id, so it is stable across redeliveries
 * and restarts without naming the gateway's internal subjects to receivers.
 */
export const payloadId = (eventId: string): string =>
  `evt_${createHash("sha256").update(eventId).digest("base64url").slice(0, 32)}`;

function dataOf(item: ComprobanteEvent): unknown {
  switch (item.tipo) {
    case "comprobante.autorizado": {
      const { event } = item;
      // the 200 body the issuance answered; an event that cannot rebuild it still says what
      // was authorized
      return (
        event.answer ??
        (event.reply && wsfe.issuedHttpReply(event.reply)) ?? {
          representada: event.representada,
          ptoVta: event.ptoVta,
          cbteTipo: event.cbteTipo,
          cbteNro: event.cbteNro,
          cbteFch: event.cbteFch,
          cae: event.cae,
          caeVencimiento: event.caeVencimiento,
          observaciones: event.observaciones,
        }
      );
    }
    case "comprobante.rechazado": {
      const { event } = item;
      if (event.answer) return event.answer;
      const rejected = authorityRejected(event);
      const { ptoVta, cbteTipo, cbteNro } = event;
      return {
        code: rejected.code,
        message: rejected.message,
        details: { ...rejected.details, ptoVta, cbteTipo, cbteNro },
      };
    }
    case "comprobante.no_emitido": {
      const { event } = item;
      return {
        representada: event.representada,
        ptoVta: event.ptoVta,
        cbteTipo: event.cbteTipo,
        cbteNro: event.cbteNro,
        cbteFch: event.cbteFch,
        idempotencyKey: event.idempotencyKey,
        motivo: event.motivo,
      };
    }
  }
}

/** The payload every endpoint subscribed to the event receives. */
export function payloadOf(item: ComprobanteEvent): WebhookPayload {
  return {
    id: payloadId(item.event.id),
    tipo: item.tipo,
    createdAt: item.event.occurredAt,
    environment: item.event.environment,
    data: dataOf(item),
  };
}
