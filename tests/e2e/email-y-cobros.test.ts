import { randomBytes, randomUUID } from "node:crypto";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { mercadoPagoSignature } from "@pasarela/payments-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  registerWsfeIssuer,
  scratch,
  type Account,
  type ErrorBody,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { newUser, PanelClient } from "../support/panel.js";
import { numeroComprobante } from "@pasarela/contracts";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "../support/smtp.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually } from "../support/wait.js";

const env = "homologacion" as const;
const PTO_VTA = 3;
const MAIL_FROM = "comprobantes@pasarela.test";
const RAZON_SOCIAL = "Mi Comercio SRL";
const REPLY_TO = "ventas@micomercio.test";

interface Issued {
  cbteNro: number;
  ptoVta: number;
  cbteTipo: number;
  impTotal: number;
}

interface Link {
  id: string;
  url: string;
  estado: string;
  monto: number;
  moneda: string;
  vence: string;
  pagadoAt: string | null;
}

/** Today in Argentina (UTC−3), as the authority writes dates. */
const today = (offsetDays = 0) =>
  new Date(Date.now() - 3 * 3_600_000 + offsetDays * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .replaceAll("-", "");

describe("e-mail of vouchers and payment links, end to end", () => {
  let stack: E2EStack;
  let dir: Scratch;
  let smtp: TestSmtp;
  let account: Account;
  let stranger: Account;
  let issuer: Registered;
  /** a voucher the authority rejected (Resultado R), never authorized on its number */
  let rejected: Issued;

  const post = (path: string, body: unknown, authorization: string = account.rw) =>
    http(stack, "POST", path, authorization, body);
  const tuple = (issued: Pick<Issued, "cbteNro" | "ptoVta" | "cbteTipo">) => ({
    environment: env,
    representada: issuer.cuit,
    ptoVta: issued.ptoVta,
    cbteTipo: issued.cbteTipo,
    cbteNro: issued.cbteNro,
  });
  const facturaC = (extra: Record<string, unknown> = {}) => ({
    environment: env,
    representada: issuer.cuit,
    ptoVta: PTO_VTA,
    concepto: 1,
    cbteTipo: 11,
    docTipo: 99,
    docNro: "0",
    condicionIvaReceptorId: 5,
    items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1210.50", alicuotaIva: 0 }],
    ...extra,
  });
  async function issue(body: Record<string, unknown>): Promise<Issued> {
    const response = await post("/api/wsfe/facturas", body);
    expect(response.status, response.text).toBe(200);
    return response.json<Issued>();
  }
  async function lookup(issued: Issued): Promise<Record<string, unknown>> {
    const response = await post("/api/wsfe/comprobante", tuple(issued));
    expect(response.status, response.text).toBe(200);
    return response.json();
  }
  const emailOf = async (issued: Issued) => (await lookup(issued)).email;
  const emailReaches = (issued: Issued, status: string) =>
    eventually(`e-mail ${status}`, async () => {
      const email = (await emailOf(issued)) as { status?: string } | undefined;
      return email?.status === status ? email : undefined;
    });
  const mailTo = (address: string) =>
    eventually(`a message to ${address}`, () =>
      Promise.resolve(smtp.received.find((m: ReceivedMail) => m.rcptTo.includes(address))),
    );
  const numero = (issued: Issued) => numeroComprobante(issued.ptoVta, issued.cbteNro);

  beforeAll(async () => {
    smtp = await startTestSmtp();
    stack = await startE2EStack({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM,
        MAIL_RETRY_BASE_MS: "200",
        MAIL_RETRY_MAX_DELAY_MS: "400",
        LOG_LEVEL: "info",
      },
      paymentsSimulator: true,
    });
    dir = scratch();
    [account, stranger] = await Promise.all([
      newAccount(stack, "Emisora"),
      newAccount(stack, "Ajena"),
    ]);
    issuer = await registerWsfeIssuer(stack, dir, account.accountId, env, PTO_VTA);
    await stack.admin(
      "representada",
      "profile",
      "--representada",
      issuer.representadaId,
      "--razon-social",
      RAZON_SOCIAL,
      "--email",
      REPLY_TO,
    );
    // a Factura B dated today, then one dated earlier: the authority rejects it (10016)
    const facturaB = (extra: Record<string, unknown> = {}) =>
      facturaC({
        cbteTipo: 6,
        items: [{ descripcion: "x", cantidad: 1, precioUnitario: 10, alicuotaIva: 21 }],
        ...extra,
      });
    await issue(facturaB());
    const refused = await post("/api/wsfe/facturas", facturaB({ cbteFch: today(-2) }));
    expect(refused.status, refused.text).toBe(422);
    const { details } = refused.json<ErrorBody>();
    rejected = {
      ...(details as { ptoVta: number; cbteTipo: number; cbteNro: number }),
      impTotal: 0,
    };
  });

  afterAll(async () => {
    await stack?.teardown();
    await smtp?.stop();
    dir?.remove();
  });

  describe("e-mail", () => {
    it("sends an issuance with email once authorized: sender and reply-to of the profile, recipient, subject, Spanish body, the PDF and a working link", async () => {
      const to = `cliente-${randomUUID().slice(0, 8)}@example.com`;
      const issued = await issue(facturaC({ email: to }));
      const { parsed } = await mailTo(to);

      expect(parsed.from?.value).toEqual([{ address: MAIL_FROM, name: RAZON_SOCIAL }]);
      expect(parsed.replyTo?.value).toEqual([{ address: REPLY_TO, name: "" }]);
      // the job's own Message-ID, the same on any delivery of it, at the sender's domain
      expect(parsed.messageId).toMatch(/^<[0-9a-f-]{36}@pasarela\.test>$/);
      expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0]?.address : "").toBe(to);
      expect(parsed.subject).toBe(`Factura C ${numero(issued)} de ${RAZON_SOCIAL}`);
      expect(parsed.text).toContain(
        `Te enviamos el comprobante Factura C ${numero(issued)} emitido por ${RAZON_SOCIAL}.`,
      );
      expect(parsed.text).toContain("Adjuntamos el comprobante en PDF");
      expect(parsed.html).toContain("verlo o descargarlo desde este link");

      // the attachment is the printed original /api/wsfe/comprobantes/pdf answers
      const printed = await fetch(`${stack.edgeUrl}/api/wsfe/comprobantes/pdf`, {
        method: "POST",
        headers: { authorization: account.rw, "content-type": "application/json" },
        body: JSON.stringify(tuple(issued)),
      });
      expect(printed.status).toBe(200);
      const pdf = Buffer.from(await printed.arrayBuffer());
      expect(parsed.attachments).toHaveLength(1);
      expect(parsed.attachments[0]?.contentType).toBe("application/pdf");
      expect(parsed.attachments[0]?.content.equals(pdf)).toBe(true);

      // the shareable link opens the same document without an API key
      const link = /https?:\/\/\S+\/comprobantes\/\S+\.pdf/.exec(parsed.text ?? "")?.[0];
      expect(link).toBeDefined();
      const opened = await fetch(link!);
      expect(opened.status).toBe(200);
      expect(Buffer.from(await opened.arrayBuffer()).equals(pdf)).toBe(true);

      expect(await emailReaches(issued, "sent")).toEqual({ to, status: "sent", error: null });
    });

    it("answers 202 pending, the lookup shows pending while the server holds the message, then sent", async () => {
      const issued = await issue(facturaC());
      // never had a recipient: no email member at all
      expect(await lookup(issued)).not.toHaveProperty("email");

      const to = `espera-${randomUUID().slice(0, 8)}@example.com`;
      const queued = await post("/api/wsfe/comprobantes/email", { ...tuple(issued), to });
      expect(queued.status, queued.text).toBe(202);
      expect(queued.json()).toEqual({ to, status: "pending" });
      await smtp.held(to);
      expect(await emailOf(issued)).toEqual({ to, status: "pending", error: null });
      smtp.release(to);
      expect(await emailReaches(issued, "sent")).toEqual({ to, status: "sent", error: null });
    });

    it("retries a temporary failure (451) with backoff until it is sent", async () => {
      const issued = await issue(facturaC());
      const to = `temporal-2-${randomUUID().slice(0, 8)}@example.com`;
      const queued = await post("/api/wsfe/comprobantes/email", { ...tuple(issued), to });
      expect(queued.status, queued.text).toBe(202);
      expect(await emailReaches(issued, "sent")).toEqual({ to, status: "sent", error: null });
      expect(smtp.attempts(to)).toBe(3);
      expect((await mailTo(to)).parsed.attachments).toHaveLength(1);
    });

    it("stops at a permanent failure (550): failed with the SMTP text", async () => {
      const issued = await issue(facturaC());
      const to = `rechazo-${randomUUID().slice(0, 8)}@example.com`;
      const queued = await post("/api/wsfe/comprobantes/email", {
        ...tuple(issued),
        to,
        asunto: "Tu factura",
        mensaje: "Gracias por tu compra.",
      });
      expect(queued.status, queued.text).toBe(202);
      const email = (await emailReaches(issued, "failed")) as { to: string; error: string };
      expect(email.to).toBe(to);
      expect(email.error).toContain("550");
      expect(email.error).toContain("El buzón no existe");
      expect(smtp.attempts(to)).toBe(1);
    });

    it("sends to the receiver customer's e-mail when the request names no recipient", async () => {
      const comprador = `comprador-${randomUUID().slice(0, 8)}@example.com`;
      const cliente = await post("/api/clientes", {
        docTipo: 96,
        docNro: "30123456",
        razonSocial: "Ana Compradora",
        condicionIvaReceptorId: 5,
        email: comprador,
      });
      expect(cliente.status, cliente.text).toBe(201);
      const issued = await issue(
        facturaC({
          docTipo: undefined,
          docNro: undefined,
          condicionIvaReceptorId: undefined,
          clienteId: cliente.json<{ id: string }>().id,
        }),
      );
      const queued = await post("/api/wsfe/comprobantes/email", tuple(issued));
      expect(queued.status, queued.text).toBe(202);
      expect(queued.json()).toEqual({ to: comprador, status: "pending" });
      expect((await mailTo(comprador)).parsed.subject).toContain(numero(issued));
    });

    it("refuses what it cannot send: read-only key, no recipient, a bad address, unknown and rejected vouchers", async () => {
      const issued = await issue(facturaC());
      const send = (body: Record<string, unknown>, authorization = account.rw) =>
        post("/api/wsfe/comprobantes/email", body, authorization);

      const readOnly = await send({ ...tuple(issued), to: "a@example.com" }, account.ro);
      expect(readOnly.status).toBe(403);
      expect(readOnly.json<ErrorBody>().error).toBe(
        "Esta API key es de solo lectura y no puede emitir comprobantes.",
      );

      const nobody = await send(tuple(issued));
      expect(nobody.status).toBe(400);
      expect(nobody.json<ErrorBody>()).toMatchObject({ code: "EMAIL_RECIPIENT_MISSING" });
      expect(nobody.json<ErrorBody>().error).toContain("to");

      const bad = await send({ ...tuple(issued), to: "no-es-un-mail" });
      expect(bad.status).toBe(400);
      expect(bad.json<ErrorBody>()).toMatchObject({ code: "INVALID_FIELD" });
      expect(bad.json<ErrorBody>().error).toContain("to");

      const unknown = await send({
        ...tuple(issued),
        cbteNro: issued.cbteNro + 1000,
        to: "a@example.com",
      });
      expect(unknown.status).toBe(404);
      expect(unknown.json<ErrorBody>().code).toBe("COMPROBANTE_NOT_FOUND");
      const foreign = await send({ ...tuple(issued), to: "a@example.com" }, stranger.rw);
      expect(foreign.status).toBe(404);

      const refused = await send({ ...tuple(rejected), to: "a@example.com" });
      expect(refused.status, refused.text).toBe(422);
      expect(refused.json<ErrorBody>().code).toBe("COMPROBANTE_NO_AUTORIZADO");
      // nothing was recorded for any of them
      expect(await lookup(issued)).not.toHaveProperty("email");
    });
  });

  describe("payment links (Mercado Pago through its local stand-in)", () => {
    const accessToken = `TEST-${randomBytes(16).toString("hex")}`;
    const webhookSecret = randomBytes(24).toString("hex");
    let nc: NatsConnection;

    const createLink = (body: Record<string, unknown>, authorization = account.rw) =>
      post("/api/links-de-cobro", body, authorization);
    const getLink = (id: string) => http(stack, "GET", `/api/links-de-cobro/${id}`, account.rw);
    const simPay = async (link: Link, notify: boolean) => {
      const preferenceId = new URL(link.url).searchParams.get("pref_id");
      const response = await fetch(`${stack.paymentsSimulatorUrl}/_control/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ preferenceId, notify }),
      });
      expect(response.status).toBe(201);
      return (await response.json()) as {
        paymentId: string;
        notification?: {
          url: string;
          headers: Record<string, string>;
          body: unknown;
          status: number;
        };
      };
    };
    const webhook = (paymentId: string, headers: Record<string, string>) =>
      fetch(
        `${stack.edgeUrl}/webhooks/mercadopago/${account.accountId}?data.id=${paymentId}&type=payment`,
        {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify({
            type: "payment",
            data: { id: paymentId },
            action: "payment.created",
          }),
        },
      );
    const paid = (id: string) =>
      eventually("the link paid", async () => {
        const link = (await getLink(id)).json<Link>();
        return link.estado === "pagado" ? link : undefined;
      });

    beforeAll(async () => {
      const registered = await fetch(`${stack.paymentsSimulatorUrl}/_control/accounts`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ accessToken, webhookSecret }),
      });
      expect(registered.status).toBe(201);
      const set = await stack.admin<{ webhookUrl: string }>(
        "mercadopago",
        "set",
        "--account",
        account.accountId,
        "--access-token",
        accessToken,
        "--webhook-secret",
        webhookSecret,
      );
      expect(set.webhookUrl).toBe(`${stack.edgeUrl}/webhooks/mercadopago/${account.accountId}`);
      nc = await connect({ servers: stack.env.NATS_URL });
    });
    afterAll(async () => {
      await nc?.close();
    });

    it("creates a link for the voucher's total, readable and listed", async () => {
      const issued = await issue(facturaC());
      const created = await createLink(tuple(issued));
      expect(created.status, created.text).toBe(201);
      const link = created.json<Link>();
      expect(link).toMatchObject({
        estado: "pendiente",
        monto: 1210.5,
        moneda: "ARS",
        pagadoAt: null,
      });
      expect(link.url.startsWith(`${stack.paymentsSimulatorUrl}/checkout/`)).toBe(true);
      expect(Date.parse(link.vence)).toBeGreaterThan(Date.now() + 29 * 86_400_000);
      expect((await getLink(link.id)).json<Link>()).toEqual(link);
      const list = await http(stack, "GET", "/api/links-de-cobro?estado=pendiente", account.rw);
      expect(list.json<{ items: Link[] }>().items.map((l) => l.id)).toContain(link.id);

      const partial = await createLink({
        ...tuple(issued),
        monto: "100.5",
        vencimiento: "2099-12-31",
      });
      expect(partial.status, partial.text).toBe(201);
      expect(partial.json<Link>()).toMatchObject({
        monto: 100.5,
        vence: "2100-01-01T02:59:59.999Z",
      });
    });

    it("refuses a read-only key, an unknown or rejected voucher, more than the total, an unknown link", async () => {
      const issued = await issue(facturaC());
      const readOnly = await createLink(tuple(issued), account.ro);
      expect(readOnly.status).toBe(403);
      expect(readOnly.json<ErrorBody>().error).toBe(
        "Esta API key es de solo lectura y no puede generar links de cobro.",
      );
      const unknown = await createLink({ ...tuple(issued), cbteNro: issued.cbteNro + 1000 });
      expect(unknown.status).toBe(404);
      expect(unknown.json<ErrorBody>().code).toBe("COMPROBANTE_NOT_FOUND");
      expect((await createLink(tuple(issued), stranger.rw)).status).toBe(404);
      const refused = await createLink(tuple(rejected));
      expect(refused.status, refused.text).toBe(422);
      expect(refused.json<ErrorBody>().code).toBe("COMPROBANTE_NO_AUTORIZADO");
      const tooMuch = await createLink({ ...tuple(issued), monto: "1210.51" });
      expect(tooMuch.status).toBe(400);
      expect(tooMuch.json<ErrorBody>().error).toContain("monto");
      for (const id of [randomUUID(), "no-es-un-id"]) {
        const missing = await getLink(id);
        expect(missing.status).toBe(404);
        expect(missing.json<ErrorBody>().code).toBe("LINK_COBRO_NOT_FOUND");
      }
    });

    it("a paid notification with a valid signature makes the link pagado and publishes evt.cobros.link.pagado; its replay is ignored and logged", async () => {
      const issued = await issue(facturaC());
      const link = (await createLink(tuple(issued))).json<Link>();
      const payment = await simPay(link, true);
      expect(payment.notification?.status).toBe(200);
      const done = await paid(link.id);
      expect(done.pagadoAt).not.toBeNull();

      const jsm = await jetstreamManager(nc);
      const prefix = stack.env.NATS_PREFIX!;
      const stored = await jsm.streams.getMessage(`${prefix}_EVENTS`, {
        last_by_subj: `${prefix}.evt.cobros.link.pagado`,
      });
      expect(stored?.json()).toMatchObject({
        linkId: link.id,
        accountId: account.accountId,
        ...tuple(issued),
        monto: "1210.50",
        moneda: "ARS",
        paymentId: payment.paymentId,
      });

      // the voucher's links and their payment state
      const t = tuple(issued);
      const ofVoucher = await http(
        stack,
        "GET",
        `/api/links-de-cobro?environment=${env}&representada=${t.representada}&ptoVta=${t.ptoVta}&cbteTipo=${t.cbteTipo}&cbteNro=${t.cbteNro}`,
        account.rw,
      );
      expect(ofVoucher.status, ofVoucher.text).toBe(200);
      expect(ofVoucher.json<{ items: Link[] }>().items).toEqual([done]);

      // the usage history shows the payment: no API key, the voucher it collects
      const history = await eventually("the paid link in the usage history", async () => {
        const answer = await http(
          stack,
          "GET",
          `/api/uso?route=${encodeURIComponent("evt.cobros.link.pagado")}`,
          account.rw,
        );
        expect(answer.status, answer.text).toBe(200);
        const items = answer.json<{ items: Record<string, unknown>[] }>().items;
        return items.some((r) => r.id === link.id) ? items : undefined;
      });
      expect(history.find((r) => r.id === link.id)).toMatchObject({
        keyId: null,
        route: "evt.cobros.link.pagado",
        environment: env,
        representada: t.representada,
        status: 200,
        quotaConsumed: false,
      });

      const { url, headers, body } = payment.notification!;
      const replay = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
      expect(replay.status).toBe(200);
      await eventually("the replay logged", () =>
        Promise.resolve(
          stack.output().includes(`"notificationRequestId":"${headers["x-request-id"]}"`) &&
            /payment notification ignored/.test(stack.output())
            ? true
            : undefined,
        ),
      );
      expect(stack.output()).toMatch(/"reason":"replayed"[^\n]*payment notification ignored/);
      expect((await getLink(link.id)).json<Link>()).toEqual(done);

      // the panel's Comprobantes page: each voucher's newest link, and whether it was paid
      const user = newUser("Cobranzas");
      await stack.admin(
        "user",
        "add",
        "--account",
        account.accountId,
        "--email",
        user.email,
        "--name",
        user.name,
        "--password",
        user.password,
      );
      const panel = new PanelClient(stack.edgeUrl);
      expect((await panel.login(user.email, user.password)).status).toBe(303);
      const number = numeroComprobante(t.ptoVta, t.cbteNro);
      const row = async () => {
        const page = await panel.get(`/panel/comprobantes?entorno=${env}`);
        expect(page.status).toBe(200);
        return page.text.split("<tr>").find((r) => r.includes(number)) ?? "";
      };
      expect(await row()).toContain("Pagado");
      const pending = (await createLink(t)).json<Link>();
      const shown = await row();
      expect(shown).toContain("Pendiente de pago");
      expect(shown).toContain(`href="${pending.url.replaceAll("&", "&amp;")}"`);
      expect(shown).not.toContain("Pagado");
    });

    it("a forged notification is ignored and logged; the genuine one then pays", async () => {
      const issued = await issue(facturaC());
      const link = (await createLink(tuple(issued))).json<Link>();
      const { paymentId } = await simPay(link, false);
      const ts = Math.floor(Date.now() / 1000);

      const forgedId = randomUUID();
      const forged = await webhook(paymentId, {
        "x-request-id": forgedId,
        "x-signature": mercadoPagoSignature("not-the-secret", paymentId, forgedId, ts),
      });
      expect(forged.status).toBe(200);
      const unsigned = await webhook(paymentId, { "x-request-id": randomUUID() });
      expect(unsigned.status).toBe(200);
      await eventually("the forgery logged", () =>
        Promise.resolve(
          stack.output().includes(`"notificationRequestId":"${forgedId}"`) ? true : undefined,
        ),
      );
      expect(stack.output()).toMatch(/"reason":"forged: signature does not match"/);
      expect((await getLink(link.id)).json<Link>().estado).toBe("pendiente");

      const genuineId = randomUUID();
      const genuine = await webhook(paymentId, {
        "x-request-id": genuineId,
        "x-signature": mercadoPagoSignature(webhookSecret, paymentId, genuineId, ts),
      });
      expect(genuine.status).toBe(200);
      expect((await paid(link.id)).estado).toBe("pagado");
    });
  });
});
