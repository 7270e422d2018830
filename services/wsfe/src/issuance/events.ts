import type { Bus } from "@pasarela/bus";
import { wsfe } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { ComprobantesRepository, StoredComprobante } from "../db/repositories/comprobantes.js";

export interface VoucherEvents {
  /**
   * Publishes the final state of a voucher as stored (`autorizado` or `rechazado`) on JetStream
   * and records that it was published. Never fails: a voucher's outcome stands whether or not
   * its event got out, and `event_published_at` stays null for a later attempt.
   */
  publishOutcome(stored: StoredComprobante): Promise<void>;
}

function common(v: StoredComprobante) {
  return {
    version: 1 as const,
    comprobanteId: v.id,
    accountId: v.accountId,
    environment: v.series.environment,
    representada: v.series.cuit,
    ptoVta: v.series.ptoVta,
    cbteTipo: v.series.cbteTipo,
    cbteNro: v.cbteNro,
    cbteFch: v.cbteFch,
    totales: v.totales,
    moneda: v.moneda,
    requestId: v.requestId,
    idempotencyKey: v.idempotencyKey,
    occurredAt: (v.answeredAt ?? new Date()).toISOString(),
  };
}

/**
 * Events follow the stored state (ARCHITECTURE §5.5): they are built from the row the state
 * change returned, never from what the handler believes, and their id (also the JetStream
 * msgID) is one per voucher and outcome, so a second publication is dropped by the server.
 */
export function makeVoucherEvents(deps: {
  bus: Pick<Bus, "publish">;
  comprobantes: Pick<ComprobantesRepository, "markEventPublished">;
  logger: Logger;
}): VoucherEvents {
  async function publish(v: StoredComprobante): Promise<void> {
    const options = { accountId: v.accountId, requestId: v.requestId };
    if (v.state === "authorized") {
      await deps.bus.publish(
        wsfe.comprobanteAutorizado,
        {
          id: wsfe.comprobanteEventId(v.id, "autorizado"),
          ...common(v),
          cae: v.cae ?? "",
          caeVencimiento: v.caeVencimiento ?? "",
          observaciones: [...v.observaciones],
        },
        options,
      );
    } else if (v.state === "rejected") {
      await deps.bus.publish(
        wsfe.comprobanteRechazado,
        {
          id: wsfe.comprobanteEventId(v.id, "rechazado"),
          ...common(v),
          observaciones: [...v.observaciones],
          errores: [...v.errores],
        },
        options,
      );
    } else {
      return;
    }
    await deps.comprobantes.markEventPublished(v.id);
  }
  return {
    async publishOutcome(stored) {
      try {
        await publish(stored);
      } catch (error) {
        deps.logger.warn({ err: error, comprobanteId: stored.id }, "voucher event not published");
      }
    },
  };
}
