import { describe, expect, it } from "vitest";
import { classifySmtpFailure } from "../../src/adapters/smtp.js";
import { numeroComprobante } from "@pasarela/contracts";
import { comprobanteMessage } from "../../src/domain/message.js";
import { nextStep, type RetryPolicy } from "../../src/domain/retry.js";

const policy: RetryPolicy = { retryForMs: 60_000, baseMs: 1_000, maxDelayMs: 8_000 };
const queuedAt = 1_000_000;

describe("when a failed delivery is tried again", () => {
  it("doubles the wait per attempt up to the cap", () => {
    const temporary = { kind: "temporary", error: "451 try later" } as const;
    const delays = [1, 2, 3, 4, 5].map((attempt) => {
      const step = nextStep(temporary, attempt, queuedAt, queuedAt, policy);
      return step.kind === "retry" ? step.delayMs : step.kind;
    });
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 8_000]);
  });

  it("gives up on a temporary failure once the next try would fall past the bound", () => {
    const temporary = { kind: "temporary", error: "421 busy" } as const;
    expect(nextStep(temporary, 3, queuedAt, queuedAt + 57_000, policy)).toEqual({
      kind: "failed",
      error: "421 busy",
    });
    expect(nextStep(temporary, 3, queuedAt, queuedAt + 50_000, policy)).toEqual({
      kind: "retry",
      delayMs: 4_000,
    });
  });

  it("never retries a permanent failure", () => {
    expect(
      nextStep({ kind: "permanent", error: "550 no such user" }, 1, queuedAt, queuedAt, policy),
    ).toEqual({ kind: "failed", error: "550 no such user" });
  });
});

describe("classifying an SMTP failure", () => {
  it("takes 4xx as temporary and 5xx as permanent, keeping the server's text", () => {
    expect(classifySmtpFailure({ responseCode: 451, response: "451 4.3.0 try again" })).toEqual({
      kind: "temporary",
      error: "451 4.3.0 try again",
    });
    expect(classifySmtpFailure({ responseCode: 550, response: "550 5.1.1 unknown user" })).toEqual({
      kind: "permanent",
      error: "550 5.1.1 unknown user",
    });
  });

  it("takes a refused connection as temporary", () => {
    expect(
      classifySmtpFailure({ code: "ECONNREFUSED", message: "connect ECONNREFUSED" }).kind,
    ).toBe("temporary");
    expect(classifySmtpFailure({ code: "ESOCKET", message: "socket closed" }).kind).toBe(
      "temporary",
    );
  });

  it("takes an address nodemailer refuses as permanent", () => {
    expect(classifySmtpFailure({ code: "EENVELOPE", message: "No recipients defined" }).kind).toBe(
      "permanent",
    );
  });
});

describe("the e-mail of a voucher", () => {
  const link = {
    url: "https://pasarela.example/comprobantes/abc.pdf",
    expiresAt: "2026-12-22T10:00:00.000Z",
  };
  const job = { ptoVta: 3, cbteTipo: 6, cbteNro: 42 };

  it("says in Spanish which voucher it is, who issued it and where the link is", () => {
    const message = comprobanteMessage(job, "Mi Comercio SRL", link);
    expect(message.subject).toBe("Factura B 00003-00000042 de Mi Comercio SRL");
    expect(message.text).toContain(
      "Te enviamos el comprobante Factura B 00003-00000042 emitido por Mi Comercio SRL.",
    );
    expect(message.text).toContain("Adjuntamos el comprobante en PDF");
    expect(message.text).toContain(link.url);
    expect(message.text).toContain("vence el 22/12/2026");
    expect(message.html).toContain(`href="${link.url}"`);
  });

  it("uses the caller's subject and message, escaped in the HTML", () => {
    const message = comprobanteMessage(
      { ...job, asunto: "Tu compra", mensaje: "Hola <Ana> & equipo" },
      "Mi Comercio",
      link,
    );
    expect(message.subject).toBe("Tu compra");
    expect(message.text.startsWith("Hola <Ana> & equipo")).toBe(true);
    expect(message.html).toContain("Hola &#60;Ana&#62; &#38; equipo");
    expect(message.html).not.toContain("<Ana>");
  });

  it("prints the number as the voucher does", () => {
    expect(numeroComprobante(12, 1)).toBe("00012-00000001");
  });
});
