import { randomUUID } from "node:crypto";
import { makeControlClient } from "@pasarela/authority-sim";
import { numeroComprobante } from "@pasarela/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  register,
  scratch,
  type Account,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "../support/smtp.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { facturaEServicios } from "../support/exportacion.js";
import { eventually } from "../support/wait.js";

const env = "homologacion" as const;
const PTO_VTA = 7;
const MAIL_FROM = "comprobantes@pasarela.test";
const RAZON_SOCIAL = "Exportadora del Sur SA";

interface Issued {
  cae: string;
  cbteNro: number;
  ptoVta: number;
  cbteTipo: number;
}

interface Lookup {
  found: boolean;
  comprobante: { FEXGetCMPResult: Record<string, unknown> } | null;
  email?: { to: string; status: string; error: string | null };
}

/**
 * The e-mail of export vouchers through the running stack: issued with `email`, the Factura E
 * arrives with its PDF; the export lookup (answered by wsfex from the authority) shows the
 * record wsfe keeps, as the domestic lookup does; wsfe's send route sends it again.
 */
describe("e-mail of export vouchers end to end", { timeout: 180_000 }, () => {
  let stack: E2EStack;
  let dir: Scratch;
  let smtp: TestSmtp;
  let account: Account;
  let rep: Registered;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    stack = await startE2EStack({
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM,
        MAIL_RETRY_BASE_MS: "200",
        MAIL_RETRY_MAX_DELAY_MS: "400",
        LOG_LEVEL: "warn",
        AUTHORITY_TIMEOUT_MS: "5000",
      },
      // each process as its own NATS user: wsfex must be granted wsfe.email.get
      withNatsGrants: true,
    });
    dir = scratch();
    account = await newAccount(stack, "Exportadora");
    rep = await register(stack, dir, {
      accountId: account.accountId,
      environment: env,
      delegate: ["wsfex"],
      pos: [{ ptoVta: PTO_VTA, service: "wsfex" }],
    });
    await makeControlClient(stack.simulatorUrl!).setCotizacion(env, {
      monId: "DOL",
      cotiz: 1052.75,
    });
    await stack.admin(
      "representada",
      "profile",
      "--representada",
      rep.representadaId,
      "--razon-social",
      RAZON_SOCIAL,
    );
  });

  afterAll(async () => {
    await stack?.teardown();
    await smtp?.stop();
    dir?.remove();
  });

  const post = (path: string, body: unknown) => http(stack, "POST", path, account.rw, body);
  const tuple = (issued: Issued) => ({
    environment: env,
    representada: rep.cuit,
    ptoVta: issued.ptoVta,
    cbteTipo: issued.cbteTipo,
    cbteNro: issued.cbteNro,
  });
  const facturaE = (extra: Record<string, unknown> = {}) =>
    facturaEServicios({ environment: env, representada: rep.cuit, ptoVta: PTO_VTA }, extra);
  async function issue(body: unknown): Promise<Issued> {
    const response = await post("/api/wsfex/facturas", body);
    expect(response.status, response.text).toBe(200);
    return response.json<Issued>();
  }
  async function lookup(issued: Issued): Promise<Lookup> {
    const response = await post("/api/wsfex/comprobante", tuple(issued));
    expect(response.status, response.text).toBe(200);
    return response.json<Lookup>();
  }
  const emailReaches = (issued: Issued, to: string, status: string) =>
    eventually(`the export lookup showing ${to} ${status}`, async () => {
      const { email } = await lookup(issued);
      return email?.to === to && email.status === status ? email : undefined;
    });
  const mailTo = (address: string) =>
    eventually(`a message to ${address}`, () =>
      Promise.resolve(smtp.received.find((m: ReceivedMail) => m.rcptTo.includes(address))),
    );
  async function printed(issued: Issued): Promise<Buffer> {
    const response = await fetch(`${stack.edgeUrl}/api/wsfe/comprobantes/pdf`, {
      method: "POST",
      headers: { authorization: account.rw, "content-type": "application/json" },
      body: JSON.stringify(tuple(issued)),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  }

  let invoice: Issued;

  it("sends a Factura E issued with email: Spanish subject naming it, the PDF attached", async () => {
    const to = `importador-${randomUUID().slice(0, 8)}@example.com`;
    invoice = await issue(facturaE({ email: to }));
    const numero = `Factura E ${numeroComprobante(PTO_VTA, invoice.cbteNro)}`;
    const { parsed } = await mailTo(to);

    expect(parsed.from?.value).toEqual([{ address: MAIL_FROM, name: RAZON_SOCIAL }]);
    expect(parsed.subject).toBe(`${numero} de ${RAZON_SOCIAL}`);
    expect(parsed.text).toContain(
      `Te enviamos el comprobante ${numero} emitido por ${RAZON_SOCIAL}.`,
    );
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]?.contentType).toBe("application/pdf");
    expect(parsed.attachments[0]?.content.equals(await printed(invoice))).toBe(true);

    // the export lookup: the authority's voucher and the record of that send
    const email = await emailReaches(invoice, to, "sent");
    expect(email).toEqual({ to, status: "sent", error: null });
    const found = await lookup(invoice);
    expect(found.found).toBe(true);
    expect(JSON.stringify(found.comprobante)).toContain(invoice.cae);
  });

  it("sends an export voucher again to another address through wsfe's route", async () => {
    const other = `otra-${randomUUID().slice(0, 8)}@example.com`;
    const queued = await post("/api/wsfe/comprobantes/email", { ...tuple(invoice), to: other });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.json()).toEqual({ to: other, status: "pending" });

    const { parsed } = await mailTo(other);
    expect(parsed.subject).toContain(`Factura E ${numeroComprobante(PTO_VTA, invoice.cbteNro)}`);
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0]?.contentType).toBe("application/pdf");
    expect(await emailReaches(invoice, other, "sent")).toEqual({
      to: other,
      status: "sent",
      error: null,
    });
  });

  it("shows a refused delivery as failed with the server's text", async () => {
    const refused = `rechazo-${randomUUID().slice(0, 8)}@example.com`;
    const queued = await post("/api/wsfe/comprobantes/email", { ...tuple(invoice), to: refused });
    expect(queued.status, queued.text).toBe(202);
    const email = await emailReaches(invoice, refused, "failed");
    expect(email.error).toContain("550");
  });

  it("has no email member for an export voucher never e-mailed", async () => {
    const quiet = await issue(facturaE());
    const found = await lookup(quiet);
    expect(found.found).toBe(true);
    expect(found).not.toHaveProperty("email");
  });
});
