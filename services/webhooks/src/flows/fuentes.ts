import { consumeDurable, done, type Bus, type Delivered, type Durable } from "@pasarela/bus";
import { billing, cobros, mail, ticket, wsfe, type EventContract } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { EntregasRepository } from "../db/repositories/entregas.js";
import {
  certificadoPorVencerEntrega,
  certificadoVencidoEntrega,
  cobroPagadoEntrega,
  cuotaAlertaEntrega,
  emisionNoEmitidaEntrega,
  caeaNoObtenidoEntrega,
  caeaInformadoEntrega,
  caeaRechazadoEntrega,
  emailEnviadoEntrega,
  emailFallidoEntrega,
} from "../domain/fuentes.js";
import type { EventoEntregable } from "../domain/payload.js";

/** One source's events: the durable consumer that reads them and how each becomes deliveries. */
interface Fuente {
  /** the durable consumer's name: one per source, shared by every instance, never renamed */
  readonly durable: string;
  readonly events: readonly EventContract[];
  /** undefined for an event that makes no delivery */
  readonly entrega: (delivered: Delivered<EventContract>) => EventoEntregable | undefined;
}

/** How one event contract's bodies become deliveries, typed by the contract. */
interface Builder {
  readonly event: EventContract;
  readonly build: (delivered: Delivered<EventContract>) => EventoEntregable | undefined;
}

const by = <E extends EventContract>(
  event: E,
  build: (body: Delivered<E>["body"]) => EventoEntregable | undefined,
): Builder => ({ event, build: (delivered) => build(delivered.body as Delivered<E>["body"]) });

function fuente(durable: string, ...builders: Builder[]): Fuente {
  const bySubject = new Map(builders.map((b) => [b.event.subject, b.build]));
  return {
    durable,
    events: builders.map((b) => b.event),
    entrega: (delivered) => bySubject.get(delivered.contract.subject)!(delivered),
  };
}

/**
 * The sources besides the vouchers' outcomes (flows/eventos.ts): the mail service's e-mail
 * outcomes, cobros' paid links, ticket's certificate notices and billing's quota alerts.
 */
export const FUENTES: readonly Fuente[] = [
  fuente(
    "webhooks-emails",
    by(mail.emailEnviado, emailEnviadoEntrega),
    by(mail.emailFallido, emailFallidoEntrega),
  ),
  fuente("webhooks-cobros", by(cobros.linkPagado, cobroPagadoEntrega)),
  fuente(
    "webhooks-certificados",
    by(ticket.certificadoPorVencer, certificadoPorVencerEntrega),
    by(ticket.certificadoVencido, certificadoVencidoEntrega),
  ),
  fuente("webhooks-cuotas", by(billing.cuotaAlerta, cuotaAlertaEntrega)),
  // an asynchronous issuance that ended without a voucher of its own
  fuente("webhooks-emisiones", by(wsfe.emisionFinalizada, emisionNoEmitidaEntrega)),
  // a representada in contingency without the CAEA of a fortnight about to start
  fuente("webhooks-caea", by(wsfe.caeaNoObtenido, caeaNoObtenidoEntrega)),
  // the informing of the vouchers issued in contingency: accepted, or refused
  fuente(
    "webhooks-caea-informe",
    by(wsfe.comprobanteCaeaInformado, caeaInformadoEntrega),
    by(wsfe.comprobanteCaeaRechazado, caeaRechazadoEntrega),
  ),
];

/**
 * One durable consumer per source, each turning its events into one pending delivery per
 * endpoint of the event's account subscribed to it. As with the vouchers' outcomes, a batch is
 * acknowledged once its rows are stored, and one that comes again creates nothing twice.
 */
export async function consumeAvisos(deps: {
  bus: Bus;
  entregas: EntregasRepository;
  logger: Logger;
  queued: () => void;
}): Promise<Durable> {
  const durables: Durable[] = [];
  try {
    for (const source of FUENTES) {
      durables.push(
        await consumeDurable(deps.bus, source.events, {
          durable: source.durable,
          logger: deps.logger,
          maxBatch: 50,
          retryDelayMs: 5_000,
          handle: async (batch, info) => {
            let created = 0;
            for (const delivered of batch) {
              const item = source.entrega(delivered);
              if (item === undefined) continue;
              created += await deps.entregas.enqueue(item.accountId, item.eventId, item.payload);
            }
            if (created > 0) {
              info.logger.info({ created, durable: source.durable }, "webhook deliveries queued");
              deps.queued();
            }
            return done;
          },
        }),
      );
    }
  } catch (error) {
    await Promise.all(durables.map((d) => d.stop()));
    throw error;
  }
  return { stop: async () => void (await Promise.all(durables.map((d) => d.stop()))) };
}
