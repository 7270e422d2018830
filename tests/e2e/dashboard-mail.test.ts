import { randomUUID } from "node:crypto";
import { connectBus, type Bus } from "@pasarela/bus";
import { loadConfig as billingConfig, startBilling } from "@pasarela/billing";
import { billing } from "@pasarela/contracts";
import { loadConfig as mailConfig, startMail } from "@pasarela/mail";
import { startTracing } from "@pasarela/telemetry";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "../support/smtp.js";
import { eventually, sleep } from "../support/wait.js";

const MAIL_FROM = "panel@pasarela.test";
const PASSWORD = "una clave larga 123";

/**
 * The dashboard's e-mails from billing through the mail service's work queue to a real SMTP
 * server: the password-reset link and an operator's reply to a support ticket, with the
 * vouchers' retry rules (451 retried, 550 given up at once).
 */
describe("dashboard e-mails: billing → job.mail.mensaje → mail → SMTP", () => {
  let infra: FileInfra;
  let smtp: TestSmtp;
  let client: Bus;
  const stops: (() => Promise<void>)[] = [];
  const { logger, lines } = capturingLogger("e2e");

  beforeAll(async () => {
    infra = await fileInfra();
    smtp = await startTestSmtp();
    const nats = { NATS_URL: infra.natsUrl, NATS_PREFIX: infra.prefix };
    const billingService = await startBilling(
      billingConfig({
        ...nats,
        DATABASE_URL: infra.databaseUrl,
        CURSOR_KEY: "Y3Vyc29yLXRlc3Qta2V5LWN1cnNvci10ZXN0LWtleSE=",
        API_KEY_PEPPER: "test-pepper-test-pepper-test-pepper-0123",
      }),
      logger,
    );
    stops.push(billingService.stop);
    const mailService = await startMail(
      mailConfig({
        ...nats,
        SMTP_URL: smtp.url,
        MAIL_FROM,
        MAIL_RETRY_BASE_MS: "100",
        MAIL_RETRY_MAX_DELAY_MS: "200",
      }),
      logger,
    );
    stops.push(mailService.stop);
    client = await connectBus({
      ...{ url: infra.natsUrl, prefix: infra.prefix },
      name: "test",
      logger,
      tracer: startTracing({ service: "test" }).tracer,
    });
  });

  afterAll(async () => {
    await client?.close();
    for (const stop of stops.reverse()) await stop();
    await smtp?.stop();
    await infra?.cleanup();
  });

  const value = <T>(
    result: { ok: true; value: T } | { ok: false; error: { code: string; message: string } },
  ): T => {
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    return result.value;
  };
  const mailTo = (address: string) =>
    eventually(`a message to ${address}`, () =>
      smtp.received.find((m: ReceivedMail) => m.rcptTo.includes(address)),
    );

  async function signup(local: string) {
    const email = `${local}-${randomUUID().slice(0, 8)}@cliente.test`;
    const ids = value(
      await client.request(billing.userSignup, {
        accountName: "Librería Sur",
        name: "Carla Gómez",
        email,
        password: PASSWORD,
      }),
    );
    return { ...ids, email };
  }

  it("e-mails a working password-reset link, after a temporary SMTP refusal", async () => {
    const user = await signup("temporal-1");
    value(
      await client.request(billing.userResetRequest, {
        email: user.email,
        baseUrl: "https://panel.pasarela.test",
      }),
    );
    const { parsed } = await mailTo(user.email);
    expect(smtp.attempts(user.email)).toBe(2);
    expect(parsed.from?.value[0]).toEqual({ address: MAIL_FROM, name: "Pasarela de facturación" });
    expect(parsed.subject).toBe("Restablecé tu contraseña de la pasarela");
    expect(parsed.text).toContain("Hola Carla Gómez:");
    expect(parsed.attachments).toEqual([]);
    const link = /https:\/\/\S+/.exec(parsed.text ?? "")![0];
    expect(link.startsWith("https://panel.pasarela.test/panel/restablecer?token=")).toBe(true);
    const token = new URL(link).searchParams.get("token")!;

    expect(
      value(
        await client.request(billing.userResetComplete, { token, password: "la nueva clave!" }),
      ),
    ).toEqual({ userId: user.userId });
    const login = value(
      await client.request(billing.userLogin, {
        email: user.email,
        password: "la nueva clave!",
        ip: "203.0.113.5",
      }),
    );
    expect(login.userId).toBe(user.userId);
    // the link travelled by e-mail only: no service logged it
    expect(lines.join("\n")).not.toContain(token);
  });

  it("e-mails an operator's reply to the ticket's author, in Spanish", async () => {
    const user = await signup("soporte");
    const ticket = value(
      await client.request(
        billing.soporteCreate,
        { userId: user.userId, asunto: "Factura sin CAE", mensaje: "¿Qué pasó?" },
        { accountId: user.accountId },
      ),
    );
    value(
      await client.request(billing.soporteOperadorReply, {
        id: ticket.id,
        mensaje: "El comprobante quedó autorizado; ya podés descargarlo.",
      }),
    );
    const { parsed } = await mailTo(user.email);
    expect(parsed.subject).toBe("Respuesta a tu consulta: Factura sin CAE");
    expect(parsed.text).toContain("El equipo de soporte respondió tu consulta «Factura sin CAE»");
    expect(parsed.text).toContain("El comprobante quedó autorizado; ya podés descargarlo.");
  });

  it("gives up on a permanent SMTP refusal without retrying", async () => {
    const user = await signup("rechazo");
    value(
      await client.request(billing.userResetRequest, {
        email: user.email,
        baseUrl: "https://panel.pasarela.test",
      }),
    );
    await eventually("the refusal", () => (smtp.attempts(user.email) > 0 ? true : undefined));
    await eventually("the failure logged", () =>
      lines.some((l) => l.includes("message failed")) ? true : undefined,
    );
    await sleep(500);
    expect(smtp.attempts(user.email)).toBe(1);
  });
});
