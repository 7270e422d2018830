import { randomUUID } from "node:crypto";
import { mail, type EventContract } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import { capturingLogger } from "@pasarela/testing";
import { describe, expect, it } from "vitest";
import { emailOutcomeEvent, smtpCodeOf } from "../../src/domain/evento.js";
import { makeComprobanteWorker } from "../../src/flows/delivery.js";

const job: mail.ComprobanteJob = {
  id: randomUUID(),
  accountId: randomUUID(),
  environment: "homologacion",
  representada: "20111111112",
  ptoVta: 3,
  cbteTipo: 11,
  cbteNro: 42,
  to: "cliente@example.com",
  cc: ["contador@example.com"],
  queuedAt: "2026-11-27T10:00:00.000Z",
};
const at = "2026-11-27T10:00:05.000Z";

describe("the relay's reply code", () => {
  it("is read from the start of its text", () => {
    expect(smtpCodeOf("550 5.1.1 <x@example.com>: Recipient address rejected")).toBe(550);
    expect(smtpCodeOf("451-4.3.0 try again later")).toBe(451);
    expect(smtpCodeOf("421")).toBe(421);
  });

  it("is null when the text does not start with one", () => {
    expect(smtpCodeOf("connect ECONNREFUSED 127.0.0.1:25")).toBeNull();
    expect(smtpCodeOf("PDF_RENDER_FAILED: no se pudo generar")).toBeNull();
    expect(smtpCodeOf("5500 not a code")).toBeNull();
  });
});

describe("the outcome's event", () => {
  it("sent: evt.mail.email.enviado, one id per job", () => {
    const { event, body } = emailOutcomeEvent(job, { status: "sent", error: null, at });
    expect(event).toBe(mail.emailEnviado);
    expect(mail.emailEnviado.schema.parse(body)).toEqual({
      id: `${job.id}:enviado`,
      version: 1,
      jobId: job.id,
      accountId: job.accountId,
      environment: "homologacion",
      representada: "20111111112",
      ptoVta: 3,
      cbteTipo: 11,
      cbteNro: 42,
      to: "cliente@example.com",
      cc: ["contador@example.com"],
      occurredAt: at,
    });
  });

  it("failed: evt.mail.email.fallido with the text (bounded) and the code", () => {
    const error = `550 5.7.1 ${"x".repeat(3000)}`;
    const { event, body } = emailOutcomeEvent(job, { status: "failed", error, at });
    expect(event).toBe(mail.emailFallido);
    const parsed = mail.emailFallido.schema.parse(body);
    expect(parsed.id).toBe(`${job.id}:fallido`);
    expect(parsed.error).toHaveLength(2000);
    expect(parsed.smtpCode).toBe(550);
  });
});

describe("the voucher worker announces every outcome before reporting it", () => {
  const policy = { retryForMs: 60_000, baseMs: 1_000, maxDelayMs: 8_000 };
  const { logger } = capturingLogger("mail");

  function fakes(options: { failPublishes: number; smtp: "sent" | "permanent" }) {
    const published: { subject: string; body: unknown }[] = [];
    const reports: unknown[] = [];
    let sends = 0;
    let publishFailures = options.failPublishes;
    const bus = {
      request: (contract: { subject: string }, body: unknown) => {
        if (contract.subject === "pdf.comprobante.render") {
          return Promise.resolve(
            ok({ filename: "f.pdf", pdf: Buffer.from("%PDF").toString("base64") }),
          );
        }
        if (contract.subject === "pdf.link.create") {
          return Promise.resolve(ok({ url: "https://pasarela.example/l/1", expiresAt: at }));
        }
        if (contract.subject === "ticket.perfil.get") return Promise.resolve(ok({ perfil: null }));
        reports.push(body);
        return Promise.resolve(ok({}));
      },
      publish: (event: EventContract, body: unknown) => {
        if (publishFailures > 0) {
          publishFailures -= 1;
          return Promise.reject(new Error("nats: timeout"));
        }
        published.push({ subject: event.subject, body: event.schema.parse(body) });
        return Promise.resolve();
      },
    };
    const smtp = {
      send: () => {
        sends += 1;
        return Promise.resolve(
          options.smtp === "sent"
            ? ({ kind: "sent" } as const)
            : ({ kind: "permanent", error: "550 5.1.1 unknown user" } as const),
        );
      },
    };
    const worker = makeComprobanteWorker({
      bus: bus as never,
      smtp,
      from: "no-reply@pasarela.example",
      policy,
      now: () => Date.parse(at),
    });
    return { worker, published, reports, sends: () => sends };
  }

  it("sent: one event, then the report to wsfe", async () => {
    const f = fakes({ failPublishes: 0, smtp: "sent" });
    expect(await f.worker(job, { attempt: 1, logger })).toEqual({ kind: "done" });
    expect(f.published.map((p) => p.subject)).toEqual(["evt.mail.email.enviado"]);
    expect(f.reports).toEqual([expect.objectContaining({ status: "sent", error: null })]);
  });

  it("an announcement that fails is retried alone: the e-mail is not sent twice", async () => {
    const f = fakes({ failPublishes: 1, smtp: "permanent" });
    expect((await f.worker(job, { attempt: 1, logger })).kind).toBe("retry");
    expect(f.published).toEqual([]);
    expect(f.reports).toEqual([]);
    expect(await f.worker(job, { attempt: 2, logger })).toEqual({ kind: "done" });
    expect(f.sends()).toBe(1);
    expect(f.published).toHaveLength(1);
    expect(f.published[0]).toMatchObject({
      subject: "evt.mail.email.fallido",
      body: {
        id: `${job.id}:fallido`,
        error: "550 5.1.1 unknown user",
        smtpCode: 550,
        occurredAt: at,
      },
    });
    expect(f.reports).toEqual([
      expect.objectContaining({ status: "failed", error: "550 5.1.1 unknown user" }),
    ]);
  });
});
