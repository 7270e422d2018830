import type { Bus } from "@pasarela/bus";
import { wsfe } from "@pasarela/contracts";
import type { Logger } from "@pasarela/telemetry";
import type { ComprobantesRepository, StoredComprobante } from "../db/repositories/comprobantes.js";
import { authorizedReply, type PreparedVoucher } from "../domain/issuance/index.js";

export interface VoucherEvents {
  /**
   * Publishes the final state of a voucher as stored (`autorizado`, `rechazado`, or, for one
   * reconciliation settled without a CAE of its own, `no_emitido`) on JetStream
   * and records that it was published. Never fails: a voucher's outcome stands whether or not
   * its event got out, and `event_published_at` stays null for a later attempt.
   */
  publishOutcome(stored: StoredComprobante): Promise<void>;
  /** Several at once: published together, recorded as published in one statement. */
  publishOutcomes(stored: readonly StoredComprobante[]): Promise<void>;
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
 * The answer `wsfe.factura.issue` gives for an authorized voucher, rebuilt from the stored
 * request (the prepared voucher) and the CAE, or undefined when the row cannot rebuild it.
 */
export function storedReply(v: StoredComprobante): wsfe.FacturaIssueReply | undefined {
  if (v.cae === null || v.caeVencimiento === null) return undefined;
  try {
    const reply = wsfe.facturaIssueReplySchema.safeParse(
      authorizedReply(v.request as PreparedVoucher, {
        cuit: v.series.cuit,
        ptoVta: v.series.ptoVta,
        cbteNro: v.cbteNro,
        cotizacion: v.moneda.cotizacion,
        cae: v.cae,
        caeVencimiento: v.caeVencimiento,
        observaciones: v.observaciones,
      }),
    );
    return reply.success ? reply.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Events follow the stored state: they are built from the row the state
 * change returned, never from what the handler believes, and their id (also the JetStream
 * msgID) is one per voucher and outcome, so a second publication is dropped by the server.
 */
export function makeVoucherEvents(deps: {
  bus: Pick<Bus, "publish">;
  comprobantes: Pick<ComprobantesRepository, "markEventPublished" | "markEventsPublished">;
  logger: Logger;
}): VoucherEvents {
  /** Publishes the event of a voucher's final state; false when it has none. */
  async function publish(v: StoredComprobante): Promise<boolean> {
    const options = { accountId: v.accountId, requestId: v.requestId };
    if (v.state === "authorized") {
      const reply = storedReply(v);
      await deps.bus.publish(
        wsfe.comprobanteAutorizado,
        {
          id: wsfe.comprobanteEventId(v.id, "autorizado"),
          ...common(v),
          cae: v.cae ?? "",
          caeVencimiento: v.caeVencimiento ?? "",
          observaciones: [...v.observaciones],
          ...(reply === undefined ? {} : { reply }),
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
    } else if (v.state === "not_issued" || v.state === "conflict") {
      await deps.bus.publish(
        wsfe.comprobanteNoEmitido,
        {
          id: wsfe.comprobanteEventId(v.id, "no_emitido"),
          ...common(v),
          motivo: v.state === "conflict" ? "conflicto" : "no_emitido",
        },
        options,
      );
    } else {
      return false;
    }
    return true;
  }
  /** Never throws: a voucher whose event did not get out keeps event_published_at null. */
  async function tryPublish(v: StoredComprobante): Promise<boolean> {
    try {
      return await publish(v);
    } catch (error) {
      deps.logger.warn({ err: error, comprobanteId: v.id }, "voucher event not published");
      return false;
    }
  }
  return {
    async publishOutcome(stored) {
      if (!(await tryPublish(stored))) return;
      await deps.comprobantes.markEventPublished(stored.id).catch((error: unknown) => {
        deps.logger.warn(
          { err: error, comprobanteId: stored.id },
          "event not recorded as published",
        );
      });
    },
    async publishOutcomes(stored) {
      const published = await Promise.all(stored.map(tryPublish));
      const ids = stored.filter((_, i) => published[i]).map((v) => v.id);
      await deps.comprobantes.markEventsPublished(ids).catch((error: unknown) => {
        deps.logger.warn({ err: error, count: ids.length }, "events not recorded as published");
      });
    },
  };
}
