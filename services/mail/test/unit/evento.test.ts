import { randomUUID } from "node:crypto";
import { mail, type EventContract } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import { capturingLogger } from "@pasarela/testing";
import { describe, expect, it } from "vitest";
import { emailOutcomeEvent, smtpCodeOf } from "../../src/domain/evento.js";
import type { OutgoingMail } from "../../src/adapters/smtp.js";
import { makeComprobanteWorker, SETTLE_FOR_MS } from "../../src/flows/delivery.js";

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

describe("the voucher worker reports every outcome to wsfe, then announces it", () => {
  const policy = { retryForMs: 60_000, baseMs: 1_000, maxDelayMs: 8_000 };
  const { logger } = capturingLogger("mail");

  /**
   * wsfe's e-mail record, PDF and profile answers and SMTP as the worker sees them through the
   * bus; several workers (instances of the service) may share them.
   */
  function world(options: {
    failPublishes?: number;
    failReports?: number;
    smtp: "sent" | "permanent";
  }) {
    const published: { subject: string; body: unknown }[] = [];
    const reports: unknown[] = [];
    let record: { to: string; status: string; error: string | null } = {
      to: job.to,
      status: "pending",
      error: null,
    };
    let sends = 0;
    let publishFailures = options.failPublishes ?? 0;
    let reportFailures = options.failReports ?? 0;
    const unavailable = fail(appError("SERVICE_UNAVAILABLE"));
    const bus = {
      request: (contract: { subject: string }, body: Record<string, unknown>) => {
        if (contract.subject === "pdf.comprobante.render") {
          return Promise.resolve(
            ok({ filename: "f.pdf", pdf: Buffer.from("%PDF").toString("base64") }),
          );
        }
        if (contract.subject === "pdf.link.create") {
          return Promise.resolve(ok({ url: "https://pasarela.example/l/1", expiresAt: at }));
        }
        if (contract.subject === "ticket.perfil.get") return Promise.resolve(ok({ perfil: null }));
        if (contract.subject === "wsfe.email.get") return Promise.resolve(ok({ email: record }));
        if (reportFailures > 0) {
          reportFailures -= 1;
          return Promise.resolve(unavailable);
        }
        reports.push(body);
        record = {
          to: body.to as string,
          status: body.status as string,
          error: body.error as null,
        };
        return Promise.resolve(ok({ updated: true }));
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
    const messageIds: string[] = [];
    const smtp = {
      send: (message: OutgoingMail) => {
        sends += 1;
        messageIds.push(message.messageId);
        return Promise.resolve(
          options.smtp === "sent"
            ? ({ kind: "sent" } as const)
            : ({ kind: "permanent", error: "550 5.1.1 unknown user" } as const),
        );
      },
    };
    /** one instance of the service; its clock moves only with its own pauses */
    const instance = (settleForMs = SETTLE_FOR_MS) => {
      let clock = Date.parse(at);
      return makeComprobanteWorker({
        bus: bus as never,
        smtp,
        from: "no-reply@pasarela.example",
        policy,
        now: () => clock,
        sleep: (ms) => {
          clock += ms;
          return Promise.resolve();
        },
        settleForMs,
      });
    };
    return { instance, published, reports, messageIds, sends: () => sends };
  }

  it("sent: the report to wsfe, then one event", async () => {
    const w = world({ smtp: "sent" });
    expect(await w.instance()(job, { attempt: 1, logger })).toEqual({ kind: "done" });
    expect(w.published.map((p) => p.subject)).toEqual(["evt.mail.email.enviado"]);
    expect(w.reports).toEqual([expect.objectContaining({ status: "sent", error: null })]);
  });

  it("a report or an announcement that fails for a moment is retried in the handler, the e-mail sent once", async () => {
    const w = world({ failReports: 3, failPublishes: 2, smtp: "permanent" });
    expect(await w.instance()(job, { attempt: 1, logger })).toEqual({ kind: "done" });
    expect(w.sends()).toBe(1);
    expect(w.reports).toEqual([
      expect.objectContaining({ status: "failed", error: "550 5.1.1 unknown user" }),
    ]);
    expect(w.published).toHaveLength(1);
    expect(w.published[0]).toMatchObject({
      subject: "evt.mail.email.fallido",
      body: {
        id: `${job.id}:fallido`,
        error: "550 5.1.1 unknown user",
        smtpCode: 550,
        occurredAt: at,
      },
    });
  });

  it("an announcement still failing past the bound hands the job back; its instance only announces it then", async () => {
    // three tries within the second allowed: at 0, 250 and 750 ms
    const w = world({ failPublishes: 3, smtp: "sent" });
    const worker = w.instance(1_000);
    expect((await worker(job, { attempt: 1, logger })).kind).toBe("retry");
    expect(w.reports).toHaveLength(1);
    expect(w.published).toEqual([]);
    expect(await worker(job, { attempt: 2, logger })).toEqual({ kind: "done" });
    expect(w.sends()).toBe(1);
    expect(w.reports).toHaveLength(1);
    expect(w.published.map((p) => p.subject)).toEqual(["evt.mail.email.enviado"]);
  });

  it("a job delivered twice, the second time to another instance, is sent once", async () => {
    // the first instance sends, wsfe gets the report, then the announcement fails until the
    // job is handed back; the next delivery reaches the other instance
    const w = world({ failPublishes: 8, smtp: "sent" });
    expect((await w.instance(1_000)(job, { attempt: 1, logger })).kind).toBe("retry");
    expect(w.sends()).toBe(1);
    expect(await w.instance()(job, { attempt: 2, logger })).toEqual({ kind: "done" });
    expect(w.sends()).toBe(1);
    expect(w.reports).toHaveLength(1);
    expect(w.published.map((p) => p.body)).toEqual([
      expect.objectContaining({ id: `${job.id}:enviado` }),
    ]);
  });

  it("a job sent again because its report never reached wsfe carries the first message's Message-ID", async () => {
    // the first instance's report fails until it hands the job back (as one killed between
    // the SMTP server's acceptance and the report would leave it); the other sends it again
    const w = world({ failReports: 5, smtp: "sent" });
    expect((await w.instance(1_000)(job, { attempt: 1, logger })).kind).toBe("retry");
    expect(await w.instance()(job, { attempt: 2, logger })).toEqual({ kind: "done" });
    expect(w.sends()).toBe(2);
    expect(w.messageIds).toEqual([`<${job.id}@pasarela.example>`, `<${job.id}@pasarela.example>`]);
    // another job for the same voucher and recipient (the e-mail asked for again) is another
    // message
    const again = { ...job, id: randomUUID() };
    expect(await w.instance()(again, { attempt: 1, logger })).toEqual({ kind: "done" });
    expect(w.messageIds[2]).toBe(`<${again.id}@pasarela.example>`);
  });

  it("a redelivered job whose recipient wsfe still holds pending is sent", async () => {
    const w = world({ smtp: "sent" });
    expect(await w.instance()(job, { attempt: 2, logger })).toEqual({ kind: "done" });
    expect(w.sends()).toBe(1);
  });

  it("a redelivered job is not sent blind while wsfe cannot say whether it was", async () => {
    const blind = makeComprobanteWorker({
      bus: {
        request: () => Promise.resolve(fail(appError("SERVICE_UNAVAILABLE"))),
        publish: () => Promise.resolve(),
      } as never,
      smtp: { send: () => Promise.reject(new Error("must not send")) },
      from: "no-reply@pasarela.example",
      policy,
    });
    expect((await blind(job, { attempt: 2, logger })).kind).toBe("retry");
  });
});
