import { randomUUID } from "node:crypto";
import { billing, cobros, mail, ticket, webhooks, wsfe, type EventOf } from "@pasarela/contracts";
import { describe, expect, it } from "vitest";
import {
  caeaInformadoEntrega,
  caeaRechazadoEntrega,
  certificadoPorVencerEntrega,
  certificadoVencidoEntrega,
  cobroPagadoEntrega,
  cuotaAlertaEntrega,
  emisionNoEmitidaEntrega,
  emailEnviadoEntrega,
  emailFallidoEntrega,
} from "../../src/domain/fuentes.js";
import { payloadId } from "../../src/domain/payload.js";
import { FUENTES } from "../../src/flows/fuentes.js";

const accountId = randomUUID();
const comprobante = {
  environment: "homologacion" as const,
  representada: "20111111112",
  ptoVta: 3,
  cbteTipo: 11,
  cbteNro: 42,
};
const at = "2026-11-27T10:00:00.000Z";

describe("e-mail outcomes as webhooks", () => {
  const jobId = randomUUID();
  const common = {
    version: 1 as const,
    jobId,
    accountId,
    ...comprobante,
    to: "cliente@example.com",
    cc: ["contador@example.com"],
    occurredAt: at,
  };

  it("email.enviado names the voucher and every recipient", () => {
    const event: EventOf<typeof mail.emailEnviado> = {
      id: mail.emailEventId(jobId, "enviado"),
      ...common,
    };
    expect(emailEnviadoEntrega(mail.emailEnviado.schema.parse(event))).toEqual({
      accountId,
      eventId: `${jobId}:enviado`,
      payload: {
        id: payloadId(`${jobId}:enviado`),
        tipo: "email.enviado",
        createdAt: at,
        environment: "homologacion",
        data: {
          comprobante,
          destinatarios: ["cliente@example.com", "contador@example.com"],
          enviadoAt: at,
        },
      },
    });
  });

  it("email.fallido adds the relay's text and code, and has its own id", () => {
    const event = mail.emailFallido.schema.parse({
      id: mail.emailEventId(jobId, "fallido"),
      ...common,
      cc: [],
      error: "550 5.1.1 unknown user",
      smtpCode: 550,
    });
    const item = emailFallidoEntrega(event);
    expect(item.payload).toMatchObject({
      tipo: "email.fallido",
      data: {
        comprobante,
        destinatarios: ["cliente@example.com"],
        motivo: "550 5.1.1 unknown user",
        smtpCode: 550,
        fallidoAt: at,
      },
    });
    expect(item.payload.id).not.toBe(
      emailEnviadoEntrega({ ...common, id: mail.emailEventId(jobId, "enviado") }).payload.id,
    );
  });
});

describe("cobro.pagado", () => {
  const linkId = randomUUID();
  const base = {
    id: `cobros.link.${linkId}.pagado`,
    version: 1 as const,
    linkId,
    accountId,
    ...comprobante,
    monto: "1500.00",
    moneda: "ARS" as const,
    provider: "mercadopago" as const,
    paymentId: "123456",
    pagadoAt: at,
  };

  it("carries the link as its GET answers it", () => {
    const link: cobros.LinkCobro = {
      id: linkId,
      url: "https://pagos.example/checkout/1",
      estado: "pagado",
      monto: "1500.00",
      moneda: "ARS",
      vence: "2026-12-27T02:59:59.000Z",
      comprobante,
      pagadoAt: at,
      createdAt: "2026-11-26T10:00:00.000Z",
    };
    const item = cobroPagadoEntrega(cobros.linkPagado.schema.parse({ ...base, link }));
    expect(item).toMatchObject({ accountId, eventId: base.id });
    expect(item.payload).toEqual({
      id: payloadId(base.id),
      tipo: "cobro.pagado",
      createdAt: at,
      environment: "homologacion",
      // the amount as the API answers it: a JSON number
      data: { ...link, monto: 1500 },
    });
  });

  it("still says which link, voucher and amount for an event published without the link", () => {
    expect(cobroPagadoEntrega(cobros.linkPagado.schema.parse(base)).payload.data).toEqual({
      id: linkId,
      estado: "pagado",
      monto: 1500,
      moneda: "ARS",
      comprobante,
      pagadoAt: at,
    });
  });
});

describe("certificate notices", () => {
  const certificateId = randomUUID();
  const common = {
    version: 1 as const,
    certificateId,
    representadaId: randomUUID(),
    accountId,
    cuit: "20111111112",
    environment: "produccion" as const,
    serialNumber: "0A1B2C",
    fingerprint: "ab".repeat(32),
    notAfter: "2026-12-04T10:00:00.000Z",
    occurredAt: at,
  };
  const certificado = {
    representada: "20111111112",
    environment: "produccion",
    serialNumber: "0A1B2C",
    fingerprint: "ab".repeat(32),
    notAfter: "2026-12-04T10:00:00.000Z",
  };

  it("certificado.por_vencer says the threshold and the days left", () => {
    const event = ticket.certificadoPorVencer.schema.parse({
      id: `${certificateId}:por_vencer:7`,
      ...common,
      diasRestantes: 7,
      umbral: 7,
    });
    expect(certificadoPorVencerEntrega(event).payload).toEqual({
      id: payloadId(`${certificateId}:por_vencer:7`),
      tipo: "certificado.por_vencer",
      createdAt: at,
      environment: "produccion",
      data: { ...certificado, diasRestantes: 7, umbral: 7 },
    });
  });

  it("certificado.vencido has no threshold", () => {
    const event = ticket.certificadoVencido.schema.parse({
      id: `${certificateId}:vencido`,
      ...common,
      diasRestantes: 0,
    });
    const item = certificadoVencidoEntrega(event);
    expect(item.payload.tipo).toBe("certificado.vencido");
    expect(item.payload.data).toEqual({ ...certificado, diasRestantes: 0 });
  });

  it("refuses a threshold the contract does not have", () => {
    expect(() =>
      ticket.certificadoPorVencer.schema.parse({
        id: "x",
        ...common,
        diasRestantes: 14,
        umbral: 14,
      }),
    ).toThrow();
  });
});

describe("cuota.alerta", () => {
  it("says resource, period, use, quota and threshold, with no environment", () => {
    const start = new Date("2026-11-01T00:00:00.000Z");
    const id = billing.cuotaAlertaId(accountId, "facturas", start, 80);
    const item = cuotaAlertaEntrega(
      billing.cuotaAlerta.schema.parse({
        id,
        version: 1,
        accountId,
        resource: "facturas",
        period: { start: start.toISOString(), end: "2026-12-01T00:00:00.000Z" },
        used: 4,
        limit: 5,
        umbral: 80,
        occurredAt: at,
      }),
    );
    expect(item).toEqual({
      accountId,
      eventId: id,
      payload: {
        id: payloadId(id),
        tipo: "cuota.alerta",
        createdAt: at,
        data: {
          resource: "facturas",
          period: { start: start.toISOString(), end: "2026-12-01T00:00:00.000Z" },
          used: 4,
          limit: 5,
          umbral: 80,
        },
      },
    });
    expect(item.payload).not.toHaveProperty("environment");
  });
});

describe("the consumers of the account's events", () => {
  it("one durable per source, stable names, every new event subscribable", () => {
    expect(FUENTES.map((f) => f.durable)).toEqual([
      "webhooks-emails",
      "webhooks-cobros",
      "webhooks-certificados",
      "webhooks-cuotas",
      "webhooks-emisiones",
      "webhooks-caea",
      "webhooks-caea-informe",
    ]);
    const subjects = FUENTES.flatMap((f) => f.events.map((e) => e.subject));
    expect(subjects).toEqual([
      "evt.mail.email.enviado",
      "evt.mail.email.fallido",
      "evt.cobros.link.pagado",
      "evt.ticket.certificado.por_vencer",
      "evt.ticket.certificado.vencido",
      "evt.billing.cuota.alerta",
      "evt.wsfe.emision.finalizada",
      "evt.wsfe.caea.no_obtenido",
      "evt.wsfe.comprobante.caea_informado",
      "evt.wsfe.comprobante.caea_rechazado",
    ]);
    for (const tipo of [
      "email.enviado",
      "email.fallido",
      "cobro.pagado",
      "certificado.por_vencer",
      "certificado.vencido",
      "cuota.alerta",
      "comprobante.caea_informado",
      "comprobante.caea_rechazado",
    ]) {
      expect(webhooks.WEBHOOK_EVENTOS).toContain(tipo);
    }
  });

  it("routes each event to its own builder", () => {
    const [emails] = FUENTES;
    const jobId = randomUUID();
    const body = {
      id: mail.emailEventId(jobId, "fallido"),
      version: 1 as const,
      jobId,
      accountId,
      ...comprobante,
      to: "a@example.com",
      cc: [],
      occurredAt: at,
      error: "boom",
      smtpCode: null,
    };
    expect(emails!.entrega({ contract: mail.emailFallido, body })?.payload.tipo).toBe(
      "email.fallido",
    );
  });
});

describe("asynchronous issuances", () => {
  const finalizada = (estado: "autorizado" | "rechazado" | "no_emitido") => ({
    id: `wsfe.emision.finalizada.${estado}`,
    version: 1 as const,
    emisionId: "0b7a3c52-8d3e-4a8e-9b62-1f6f1f2a7c11",
    tipo: "factura" as const,
    accountId,
    environment: "homologacion" as const,
    estado,
    idempotencyKey: "pedido-1",
    ...(estado === "autorizado"
      ? {}
      : {
          error: {
            code: "ASYNC_ISSUANCE_EXPIRED",
            message: "La AFIP no permitió emitir el comprobante",
          },
        }),
    occurredAt: at,
  });

  it("one that ended without a voucher is comprobante.no_emitido, naming the issuance and why", () => {
    const item = emisionNoEmitidaEntrega(finalizada("no_emitido"));
    expect(item?.payload).toMatchObject({
      tipo: "comprobante.no_emitido",
      environment: "homologacion",
      data: {
        emisionId: "0b7a3c52-8d3e-4a8e-9b62-1f6f1f2a7c11",
        tipo: "factura",
        idempotencyKey: "pedido-1",
        error: { code: "ASYNC_ISSUANCE_EXPIRED" },
      },
    });
    expect(item?.accountId).toBe(accountId);
  });

  it("one that ended with a voucher is told by the voucher's own event, not twice", () => {
    expect(emisionNoEmitidaEntrega(finalizada("autorizado"))).toBeUndefined();
    expect(emisionNoEmitidaEntrega(finalizada("rechazado"))).toBeUndefined();
  });
});

describe("the informing of contingency vouchers as webhooks", () => {
  const comprobanteId = randomUUID();
  const common = {
    version: 1 as const,
    comprobanteId,
    accountId,
    ...comprobante,
    cbteFch: "20261127",
    totales: {
      impTotal: "121.50",
      impNeto: "121.50",
      impIVA: "0.00",
      impTrib: "0.00",
      impTotConc: "0.00",
      impOpEx: "0.00",
    },
    moneda: { id: "PES", cotizacion: "1" },
    requestId: "req-1",
    idempotencyKey: "k-1",
    caea: "31234567890123",
    occurredAt: at,
  };
  const voucher = { ...comprobante, cbteFch: "20261127", impTotal: 121.5, moneda: "PES" };

  it("comprobante.caea_informado names the voucher, its CAEA and when it was informed", () => {
    const id = wsfe.comprobanteEventId(comprobanteId, "caea_informado");
    const item = caeaInformadoEntrega({
      ...common,
      id,
      observaciones: [{ code: 10217, msg: "obs" }],
      informadoAt: at,
    });
    expect(item).toEqual({
      accountId,
      eventId: id,
      payload: {
        id: payloadId(id),
        tipo: "comprobante.caea_informado",
        createdAt: at,
        environment: "homologacion",
        data: {
          comprobante: voucher,
          tipoAutorizacion: "CAEA",
          caea: "31234567890123",
          observaciones: [{ code: 10217, msg: "obs" }],
          informadoAt: at,
          idempotencyKey: "k-1",
        },
      },
    });
  });

  it("comprobante.caea_rechazado carries the authority's codes", () => {
    const id = wsfe.comprobanteEventId(comprobanteId, "caea_rechazado");
    const item = caeaRechazadoEntrega({
      ...common,
      id,
      observaciones: [{ code: 702, msg: "fecha" }],
      errores: [{ code: 703, msg: "numero" }],
    });
    expect(item.payload).toMatchObject({
      id: payloadId(id),
      tipo: "comprobante.caea_rechazado",
      data: {
        comprobante: voucher,
        estado: "caea_rechazado",
        observaciones: [{ code: 702, msg: "fecha" }],
        errores: [{ code: 703, msg: "numero" }],
      },
    });
  });
});
