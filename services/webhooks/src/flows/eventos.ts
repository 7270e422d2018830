import { consumeDurable, done, type Bus, type Delivered, type Durable } from "@pasarela/bus";
import { wsfe, type EventOf } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { EntregasRepository } from "../db/repositories/entregas.js";
import { payloadOf, type ComprobanteEvent } from "../domain/payload.js";

/** The durable consumer's name: one, shared by every instance. */
export const COMPROBANTES_DURABLE = "webhooks-comprobantes";

type ComprobanteContract =
  | typeof wsfe.comprobanteAutorizado
  | typeof wsfe.comprobanteRechazado
  | typeof wsfe.comprobanteNoEmitido;

/** A delivered voucher outcome as the webhook event it becomes. */
export function comprobanteEventOf(delivered: Delivered<ComprobanteContract>): ComprobanteEvent {
  switch (delivered.contract.subject) {
    case wsfe.comprobanteAutorizado.subject:
      return {
        tipo: "comprobante.autorizado",
        event: delivered.body as EventOf<typeof wsfe.comprobanteAutorizado>,
      };
    case wsfe.comprobanteRechazado.subject:
      return {
        tipo: "comprobante.rechazado",
        event: delivered.body as EventOf<typeof wsfe.comprobanteRechazado>,
      };
    default:
      return {
        tipo: "comprobante.no_emitido",
        event: delivered.body as EventOf<typeof wsfe.comprobanteNoEmitido>,
      };
  }
}

/**
 * Turns every voucher outcome into one pending delivery per subscribed endpoint. A batch is
 * acknowledged only once its rows are stored; one that comes again (a crash before the
 * acknowledgement) finds them and creates nothing twice.
 */
export function consumeComprobanteEvents(deps: {
  bus: Bus;
  entregas: EntregasRepository;
  logger: Logger;
  /** called when deliveries were created, so they go out without waiting for a poll */
  queued: () => void;
}): Promise<Durable> {
  return consumeDurable(
    deps.bus,
    [wsfe.comprobanteAutorizado, wsfe.comprobanteRechazado, wsfe.comprobanteNoEmitido],
    {
      durable: COMPROBANTES_DURABLE,
      logger: deps.logger,
      maxBatch: 50,
      retryDelayMs: 5_000,
      handle: async (batch, info) => {
        let created = 0;
        for (const delivered of batch) {
          const item = comprobanteEventOf(delivered);
          created += await deps.entregas.enqueue(
            item.event.accountId,
            item.event.id,
            payloadOf(item),
          );
        }
        if (created > 0) {
          info.logger.info({ created }, "webhook deliveries queued");
          deps.queued();
        }
        return done;
      },
    },
  );
}
