import type { Bus } from "@pasarela/bus";
import type { billing } from "@pasarela/contracts";
import { pdf, wsfe } from "@pasarela/contracts";
import { authorityRejected } from "@pasarela/errors";
import type { Logger } from "@pasarela/telemetry";
import type { ComprobantesRepository, StoredComprobante } from "../db/repositories/comprobantes.js";
import { exportacionReply, type PreparedExportacion } from "../domain/exportacion/index.js";
import { authorizedReply, type PreparedVoucher } from "../domain/issuance/index.js";
import type { IssuanceReply } from "./issuance-job.js";

/** An issuance's outcome event, tagged as billing takes it (`billing.factura.settle`). */
export type OutcomeEvent = billing.FacturaOutcomeEvent;

export interface VoucherEvents {
  /**
   * The outcome event of a voucher in a final state (`autorizado`, `rechazado`) carrying the
   * answer its issuance gives; undefined for any other state.
   */
  outcomeOf(
    stored: StoredComprobante,
    answer: billing.FacturaAnswer | undefined,
  ): OutcomeEvent | undefined;
  /**
   * Publishes an outcome event on JetStream and, for a voucher's, records that it was
   * published. Never fails: false when it did not get out (the sweep publishes the voucher's
   * again; an attempt's end reaches billing through the flow's hand-over).
   */
  publish(event: OutcomeEvent): Promise<boolean>;
  /**
   * Publishes the final state of a voucher whose caller is not waiting (a reconciliation, the
   * sweep): `autorizado` with the answer its Idempotency-Key replays, a new PDF link included,
   * `rechazado`, or `no_emitido` for one settled without a CAE of its own. Never fails.
   */
  publishOutcome(stored: StoredComprobante): Promise<void>;
  /** Several at once: published together, recorded as published in one statement. */
  publishOutcomes(stored: readonly StoredComprobante[]): Promise<void>;
}

/** What every event about a stored voucher says of it (outcomeFields of the contracts). */
export function voucherEventFields(v: StoredComprobante) {
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
 * The answer the issuance gives for an authorized voucher (`wsfe.factura.issue`, or
 * `wsfe.exportacion.issue` for an export type), rebuilt from the stored request (the prepared
 * voucher) and the CAE, or undefined when the row cannot rebuild it.
 */
export function storedReply(v: StoredComprobante): IssuanceReply | undefined {
  if (v.cae === null || v.caeVencimiento === null) return undefined;
  const granted = {
    cuit: v.series.cuit,
    ptoVta: v.series.ptoVta,
    cbteNro: v.cbteNro,
    cotizacion: v.moneda.cotizacion,
    cae: v.cae,
    caeVencimiento: v.caeVencimiento,
    observaciones: v.observaciones,
    tipoAutorizacion: v.tipoAutorizacion,
  };
  try {
    const reply = wsfe.isExportCbteTipo(v.series.cbteTipo)
      ? wsfe.exportacionIssueReplySchema.safeParse(
          exportacionReply(v.request as PreparedExportacion, granted),
        )
      : wsfe.facturaIssueReplySchema.safeParse(
          authorizedReply(v.request as PreparedVoucher, granted),
        );
    return reply.success ? reply.data : undefined;
  } catch {
    return undefined;
  }
}

/** The 422 a rejected voucher is answered with: the authority's notes and its number. */
function rejectionOf(v: StoredComprobante) {
  const error = authorityRejected({ observaciones: v.observaciones, errores: v.errores });
  const { ptoVta, cbteTipo } = v.series;
  return { ...error, details: { ...error.details, ptoVta, cbteTipo, cbteNro: v.cbteNro } };
}

/** The voucher a PDF link and its events name. */
const voucherRef = (v: StoredComprobante) => ({
  environment: v.series.environment,
  representada: v.series.cuit,
  ptoVta: v.series.ptoVta,
  cbteTipo: v.series.cbteTipo,
  cbteNro: v.cbteNro,
});

/**
 * Events follow the stored state: they are built from the row the state change returned,
 * never from what the handler believes, and a voucher's id (also the JetStream msgID) is one
 * per voucher and outcome, so a second publication is dropped by the server and consumers
 * de-duplicate by it.
 */
export function makeVoucherEvents(deps: {
  bus: Pick<Bus, "publish" | "request">;
  comprobantes: Pick<ComprobantesRepository, "markEventsPublished">;
  logger: Logger;
}): VoucherEvents {
  const outcomeOf: VoucherEvents["outcomeOf"] = (v, answer) => {
    if (v.state === "authorized") {
      const reply = storedReply(v);
      const factura =
        answer?.kind === "authorized"
          ? (answer.factura as wsfe.IssuedHttpReply)
          : reply && wsfe.issuedHttpReply(reply);
      return {
        tipo: "autorizado",
        event: {
          id: wsfe.comprobanteEventId(v.id, "autorizado"),
          ...voucherEventFields(v),
          cae: v.cae ?? "",
          caeVencimiento: v.caeVencimiento ?? "",
          tipoAutorizacion: v.tipoAutorizacion,
          observaciones: [...v.observaciones],
          ...(reply === undefined ? {} : { reply }),
          ...(factura === undefined ? {} : { answer: factura }),
        },
      };
    }
    if (v.state === "rejected") {
      return {
        tipo: "rechazado",
        event: {
          id: wsfe.comprobanteEventId(v.id, "rechazado"),
          ...voucherEventFields(v),
          observaciones: [...v.observaciones],
          errores: [...v.errores],
          answer: answer?.kind === "error" ? answer.error : rejectionOf(v),
        },
      };
    }
    return undefined;
  };

  async function send(event: OutcomeEvent): Promise<void> {
    const options = { accountId: event.event.accountId, requestId: event.event.requestId };
    switch (event.tipo) {
      case "autorizado":
        return deps.bus.publish(wsfe.comprobanteAutorizado, event.event, options);
      case "rechazado":
        return deps.bus.publish(wsfe.comprobanteRechazado, event.event, options);
      case "terminada":
        return deps.bus.publish(wsfe.emisionTerminada, event.event, options);
    }
  }

  /** The answer of an authorized voucher nobody is waiting for, with a new PDF link. */
  async function answerOf(v: StoredComprobante): Promise<billing.FacturaAnswer | undefined> {
    if (v.state !== "authorized") return undefined;
    const reply = storedReply(v);
    if (reply === undefined) return undefined;
    const link = await deps.bus
      .request(pdf.linkCreate, voucherRef(v), { accountId: v.accountId, requestId: v.requestId })
      .catch((error: unknown) => ({ ok: false as const, error }));
    if (!link.ok)
      deps.logger.warn({ err: link.error, comprobanteId: v.id }, "event without pdfUrl");
    const factura = {
      ...wsfe.issuedHttpReply(reply),
      ...(link.ok ? { pdfUrl: link.value.url } : {}),
    };
    return { kind: "authorized", factura };
  }

  /** Publishes the event of a voucher's final state; false when it has none or it failed. */
  async function tryPublish(v: StoredComprobante): Promise<boolean> {
    try {
      const event = outcomeOf(v, await answerOf(v));
      if (event) {
        await send(event);
        return true;
      }
      if (v.state !== "not_issued" && v.state !== "conflict") return false;
      await deps.bus.publish(
        wsfe.comprobanteNoEmitido,
        {
          id: wsfe.comprobanteEventId(v.id, "no_emitido"),
          ...voucherEventFields(v),
          motivo: v.state === "conflict" ? "conflicto" : "no_emitido",
        },
        { accountId: v.accountId, requestId: v.requestId },
      );
      return true;
    } catch (error) {
      deps.logger.warn({ err: error, comprobanteId: v.id }, "voucher event not published");
      return false;
    }
  }

  const markPublished = (ids: readonly string[]) =>
    deps.comprobantes.markEventsPublished(ids).catch((error: unknown) => {
      deps.logger.warn({ err: error, count: ids.length }, "events not recorded as published");
    });
  /**
   * The vouchers whose events their issuances published in the same turn of the event loop
   * (a batch's callers answer together) are recorded in one statement, off the callers' path:
   * one not recorded is only published again by the sweep, and dropped as a duplicate.
   */
  let toMark: string[] = [];
  const markSoon = (id: string) => {
    toMark.push(id);
    if (toMark.length > 1) return;
    setImmediate(() => {
      const ids = toMark;
      toMark = [];
      void markPublished(ids);
    });
  };

  return {
    outcomeOf,
    async publish(event) {
      try {
        await send(event);
      } catch (error) {
        deps.logger.warn({ err: error, eventId: event.event.id }, "outcome event not published");
        return false;
      }
      if (event.tipo !== "terminada") markSoon(event.event.comprobanteId);
      return true;
    },
    async publishOutcome(stored) {
      if (await tryPublish(stored)) await markPublished([stored.id]);
    },
    async publishOutcomes(stored) {
      const published = await Promise.all(stored.map(tryPublish));
      await markPublished(stored.filter((_, i) => published[i]).map((v) => v.id));
    },
  };
}
