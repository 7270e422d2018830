import {
  exactNumber,
  type billing,
  type cobros,
  type EventOf,
  type mail,
  type ticket,
  type wsfe,
} from "@pasarela/contracts";
import { payloadId, type EventoEntregable, type WebhookPayload } from "./payload.js";

/**
 * The account's events besides the vouchers' outcomes, as webhook payloads: what each `data`
 * holds is documented in docs/webhooks-eventos.md. Pure: the consumers in flows/avisos.ts
 * parse the bus events and store what these answer.
 */

type EmailEnviado = EventOf<typeof mail.emailEnviado>;
type EmailFallido = EventOf<typeof mail.emailFallido>;
type LinkPagado = EventOf<typeof cobros.linkPagado>;
type CertificadoPorVencer = EventOf<typeof ticket.certificadoPorVencer>;
type CertificadoVencido = EventOf<typeof ticket.certificadoVencido>;
type CuotaAlerta = EventOf<typeof billing.cuotaAlerta>;
type EmisionFinalizada = EventOf<typeof wsfe.emisionFinalizada>;
type CaeaNoObtenido = EventOf<typeof wsfe.caeaNoObtenido>;
type CaeaInformado = EventOf<typeof wsfe.comprobanteCaeaInformado>;
type CaeaRechazado = EventOf<typeof wsfe.comprobanteCaeaRechazado>;

const entregable = (
  accountId: string,
  eventId: string,
  payload: Omit<WebhookPayload, "id">,
): EventoEntregable => ({ accountId, eventId, payload: { id: payloadId(eventId), ...payload } });

/** The voucher an e-mail carried, named as the API names vouchers. */
const comprobanteOf = (event: EmailEnviado) => ({
  environment: event.environment,
  representada: event.representada,
  ptoVta: event.ptoVta,
  cbteTipo: event.cbteTipo,
  cbteNro: event.cbteNro,
});

/** `email.enviado`: the relay accepted the voucher's e-mail for these recipients. */
export const emailEnviadoEntrega = (event: EmailEnviado): EventoEntregable =>
  entregable(event.accountId, event.id, {
    tipo: "email.enviado",
    createdAt: event.occurredAt,
    environment: event.environment,
    data: {
      comprobante: comprobanteOf(event),
      destinatarios: [event.to, ...event.cc],
      enviadoAt: event.occurredAt,
    },
  });

/** `email.fallido`: the voucher's e-mail was given up, with the relay's text and code. */
export const emailFallidoEntrega = (event: EmailFallido): EventoEntregable =>
  entregable(event.accountId, event.id, {
    tipo: "email.fallido",
    createdAt: event.occurredAt,
    environment: event.environment,
    data: {
      comprobante: comprobanteOf(event),
      destinatarios: [event.to, ...event.cc],
      motivo: event.error,
      smtpCode: event.smtpCode,
      fallidoAt: event.occurredAt,
    },
  });

/** An amount as the API answers it: a JSON number with the exact decimal value. */
const amount = (text: string): number | string => exactNumber(text) ?? text;

/**
 * `cobro.pagado`: the link as `GET /api/links-de-cobro/{id}` answers it once paid (`monto` a
 * JSON number); an event published without it still says which link, voucher, amount and
 * moment.
 */
export function cobroPagadoEntrega(event: LinkPagado): EventoEntregable {
  const comprobante = {
    environment: event.environment,
    representada: event.representada,
    ptoVta: event.ptoVta,
    cbteTipo: event.cbteTipo,
    cbteNro: event.cbteNro,
  };
  return entregable(event.accountId, event.id, {
    tipo: "cobro.pagado",
    createdAt: event.pagadoAt,
    environment: event.environment,
    data: event.link
      ? { ...event.link, monto: amount(event.link.monto) }
      : {
          id: event.linkId,
          estado: "pagado",
          monto: amount(event.monto),
          moneda: event.moneda,
          comprobante,
          pagadoAt: event.pagadoAt,
        },
  });
}

const certificadoOf = (event: CertificadoPorVencer | CertificadoVencido) => ({
  representada: event.cuit,
  environment: event.environment,
  serialNumber: event.serialNumber,
  fingerprint: event.fingerprint,
  notAfter: event.notAfter,
  diasRestantes: event.diasRestantes,
});

/** `certificado.por_vencer`: the representada's certificate reached `umbral` days left. */
export const certificadoPorVencerEntrega = (event: CertificadoPorVencer): EventoEntregable =>
  entregable(event.accountId, event.id, {
    tipo: "certificado.por_vencer",
    createdAt: event.occurredAt,
    environment: event.environment,
    data: { ...certificadoOf(event), umbral: event.umbral },
  });

/** `certificado.vencido`: the representada's certificate expired. */
export const certificadoVencidoEntrega = (event: CertificadoVencido): EventoEntregable =>
  entregable(event.accountId, event.id, {
    tipo: "certificado.vencido",
    createdAt: event.occurredAt,
    environment: event.environment,
    data: certificadoOf(event),
  });

/** `cuota.alerta`: the account's use of a quota in the period reached `umbral` per cent. */
export const cuotaAlertaEntrega = (event: CuotaAlerta): EventoEntregable =>
  entregable(event.accountId, event.id, {
    tipo: "cuota.alerta",
    createdAt: event.occurredAt,
    data: {
      resource: event.resource,
      period: event.period,
      used: event.used,
      limit: event.limit,
      umbral: event.umbral,
    },
  });

/**
 * `comprobante.no_emitido` of an asynchronous issuance that ended without a voucher (its
 * maximum age passed, or waiting could not mend what refused it). One that ended authorized or
 * rejected is told by its voucher's own event, so it makes no delivery here.
 */
export function emisionNoEmitidaEntrega(event: EmisionFinalizada): EventoEntregable | undefined {
  if (event.estado !== "no_emitido") return undefined;
  return entregable(event.accountId, event.id, {
    tipo: "comprobante.no_emitido",
    createdAt: event.occurredAt,
    environment: event.environment,
    data: {
      emisionId: event.emisionId,
      tipo: event.tipo,
      estado: event.estado,
      idempotencyKey: event.idempotencyKey,
      ...(event.error === undefined ? {} : { error: event.error }),
    },
  });
}

/** `caea.no_obtenido`: a fortnight has started, or starts within a day, without its CAEA. */
export const caeaNoObtenidoEntrega = (event: CaeaNoObtenido): EventoEntregable =>
  entregable(event.accountId, event.id, {
    tipo: "caea.no_obtenido",
    createdAt: event.occurredAt,
    environment: event.environment,
    data: {
      representada: event.representada,
      periodo: event.periodo,
      orden: event.orden,
      fchVigDesde: event.fchVigDesde,
      fchVigHasta: event.fchVigHasta,
    },
  });

/** The contingency voucher an informing event names, as the API names vouchers. */
const caeaComprobante = (event: CaeaInformado | CaeaRechazado) => ({
  environment: event.environment,
  representada: event.representada,
  ptoVta: event.ptoVta,
  cbteTipo: event.cbteTipo,
  cbteNro: event.cbteNro,
  cbteFch: event.cbteFch,
  impTotal: amount(event.totales.impTotal),
  moneda: event.moneda.id,
});

/**
 * `comprobante.caea_informado`: a voucher issued in contingency under a CAEA was informed to the
 * authority and accepted, with the authority's observations.
 */
export const caeaInformadoEntrega = (event: CaeaInformado): EventoEntregable =>
  entregable(event.accountId, event.id, {
    tipo: "comprobante.caea_informado",
    createdAt: event.occurredAt,
    environment: event.environment,
    data: {
      comprobante: caeaComprobante(event),
      tipoAutorizacion: "CAEA",
      caea: event.caea,
      observaciones: event.observaciones,
      informadoAt: event.informadoAt,
      idempotencyKey: event.idempotencyKey,
    },
  });

/**
 * `comprobante.caea_rechazado`: the authority refused a contingency voucher at informing. The
 * customer holds it; its codes say why, and the numbers after it wait until it is regularized.
 */
export const caeaRechazadoEntrega = (event: CaeaRechazado): EventoEntregable =>
  entregable(event.accountId, event.id, {
    tipo: "comprobante.caea_rechazado",
    createdAt: event.occurredAt,
    environment: event.environment,
    data: {
      comprobante: caeaComprobante(event),
      tipoAutorizacion: "CAEA",
      caea: event.caea,
      estado: "caea_rechazado",
      observaciones: event.observaciones,
      errores: event.errores,
      idempotencyKey: event.idempotencyKey,
    },
  });
