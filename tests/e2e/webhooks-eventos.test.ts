import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  register,
  registerWsfeIssuer,
  scratch,
  type Account,
  type Environment,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startTestSmtp, type TestSmtp } from "../support/smtp.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually, sleep } from "../support/wait.js";

const env: Environment = "homologacion";
const PTO_VTA = 5;
const DAY_MS = 86_400_000;
/** the simulator's CA issues certificates for two years */
const CERT_LIFETIME_MS = 2 * 365 * DAY_MS;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Payload {
  id: string;
  tipo: string;
  createdAt: string;
  environment?: string;
  data: Record<string, unknown>;
}

/**
 * The account's events beyond its vouchers' outcomes, over real processes: e-mail outcomes
 * (the SMTP sink accepting or refusing), a paid link (the payments simulator notifying), a
 * certificate close to expiry (issued by the simulator's CA with its clock set back) and a
 * small quota used up; each reaches a receiver in this test, signed, verified with the
 * standardwebhooks package, once, and only to the account's endpoints subscribed to it.
 */
describe(
  "webhook events of e-mails, payments, certificates and quotas",
  { timeout: 180_000 },
  () => {
    let stack: E2EStack;
    let dir: Scratch;
    let smtp: TestSmtp;
    let account: Account;
    let stranger: Account;
    let issuer: Registered;
    let server: Server;
    let base: string;
    const received = new Map<string, Received[]>();
    /** the endpoints' secrets by receiver path */
    const secretos = new Map<string, string>();

    beforeAll(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", () => {
          const path = req.url ?? "/";
          const list = received.get(path) ?? [];
          list.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
          received.set(path, list);
          res.writeHead(200, { "content-type": "text/plain" }).end("ok");
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      smtp = await startTestSmtp();
      stack = await startE2EStack({
        env: {
          LOG_LEVEL: "warn",
          SMTP_URL: smtp.url,
          MAIL_RETRY_BASE_MS: "200",
          MAIL_RETRY_MAX_DELAY_MS: "400",
          WEBHOOKS_RETRY_SCALE: "0.001",
          // the certificate check every second instead of every hour
          CERTIFICATE_EXPIRY_INTERVAL_MS: "1000",
        },
        paymentsSimulator: true,
        // every process with only its own grants: the new subjects and durables must be granted
        withNatsGrants: true,
      });
      dir = scratch();
      [account, stranger] = await Promise.all([
        newAccount(stack, "Con eventos"),
        newAccount(stack, "Otra cuenta"),
      ]);
      issuer = await registerWsfeIssuer(stack, dir, account.accountId, env, PTO_VTA);
      await subscribe(account, "/eventos", [
        "email.enviado",
        "email.fallido",
        "cobro.pagado",
        "certificado.por_vencer",
        "certificado.vencido",
        "cuota.alerta",
      ]);
      await subscribe(account, "/todo", ["*"]);
      await subscribe(account, "/solo-comprobantes", ["comprobante.autorizado"]);
      await subscribe(stranger, "/ajena", ["*"]);
    });

    afterAll(async () => {
      await stack?.teardown();
      await smtp?.stop();
      dir?.remove();
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    });

    async function subscribe(who: Account, path: string, eventos: string[]) {
      const created = await http(stack, "POST", "/api/webhooks", who.rw, {
        url: `${base}${path}`,
        eventos,
      });
      expect(created.status, created.text).toBe(201);
      secretos.set(path, created.json<{ secreto: string }>().secreto);
    }

    /** Every delivery at `path`, verified with that endpoint's secret (a forged one throws). */
    const payloadsAt = (path: string): Payload[] =>
      (received.get(path) ?? []).map((delivery) => {
        const payload = new Webhook(secretos.get(path)!).verify(
          delivery.body,
          delivery.headers as Record<string, string>,
        ) as Payload;
        expect(payload.id).toBe(delivery.headers["webhook-id"]);
        return payload;
      });

    /** The first delivery at `path` that `match` accepts, once it arrived. */
    const arrives = (path: string, what: string, match: (p: Payload) => boolean) =>
      eventually(`${what} at ${path}`, () => payloadsAt(path).find(match), { timeoutMs: 60_000 });

    /** The same event reached the catch-all endpoint with the same id, and no one else. */
    async function alsoAtCatchAllOnly(payload: Payload) {
      const atTodo = await arrives("/todo", payload.tipo, (p) => p.id === payload.id);
      expect(atTodo).toEqual(payload);
      expect(payloadsAt("/solo-comprobantes").filter((p) => p.id === payload.id)).toEqual([]);
      expect(payloadsAt("/ajena").filter((p) => p.id === payload.id)).toEqual([]);
    }

    const facturaC = (rep: Registered, environment: Environment = env) => ({
      environment,
      representada: rep.cuit,
      ptoVta: PTO_VTA,
      cbteTipo: 11,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1210.50", alicuotaIva: 0 }],
    });
    async function issue(rep: Registered, environment: Environment = env) {
      const issued = await http(stack, "POST", "/api/wsfe/facturas", account.rw, {
        ...facturaC(rep, environment),
      });
      expect(issued.status, issued.text).toBe(200);
      const { ptoVta, cbteTipo, cbteNro } = issued.json<Record<string, number>>();
      return { environment, representada: rep.cuit, ptoVta, cbteTipo, cbteNro };
    }
    type Comprobante = Awaited<ReturnType<typeof issue>>;
    const isOf = (comprobante: Comprobante) => (p: Payload) =>
      isDeepStrictEqual(p.data.comprobante, comprobante);

    it("email.enviado: the voucher and every recipient, once the relay accepted it", async () => {
      const comprobante = await issue(issuer);
      const to = `cliente-${randomUUID().slice(0, 8)}@example.com`;
      const cc = `contador-${randomUUID().slice(0, 8)}@example.com`;
      const queued = await http(stack, "POST", "/api/wsfe/comprobantes/email", account.rw, {
        ...comprobante,
        to,
        cc: [cc],
      });
      expect(queued.status, queued.text).toBe(202);

      const payload = await arrives("/eventos", "email.enviado", isOf(comprobante));
      expect(payload).toMatchObject({
        tipo: "email.enviado",
        environment: env,
        data: { comprobante, destinatarios: [to, cc] },
      });
      expect(Date.parse(payload.data.enviadoAt as string)).not.toBeNaN();
      expect(smtp.received.some((m) => m.rcptTo.includes(to))).toBe(true);
      await alsoAtCatchAllOnly(payload);
    });

    it("email.fallido: the relay's text and code when it refuses for good", async () => {
      const comprobante = await issue(issuer);
      const to = `rechazo-${randomUUID().slice(0, 8)}@example.com`;
      const queued = await http(stack, "POST", "/api/wsfe/comprobantes/email", account.rw, {
        ...comprobante,
        to,
      });
      expect(queued.status, queued.text).toBe(202);

      const payload = await arrives("/eventos", "email.fallido", isOf(comprobante));
      expect(payload).toMatchObject({
        tipo: "email.fallido",
        environment: env,
        data: { comprobante, destinatarios: [to], smtpCode: 550 },
      });
      expect(payload.data.motivo).toContain("550");
      // never announced as sent
      expect(
        payloadsAt("/eventos").filter((p) => p.tipo === "email.enviado" && isOf(comprobante)(p)),
      ).toEqual([]);
      await alsoAtCatchAllOnly(payload);
    });

    it("cobro.pagado: the paid link as its GET answers it", async () => {
      const accessToken = `TEST-${randomBytes(16).toString("hex")}`;
      const webhookSecret = randomBytes(24).toString("hex");
      const registered = await fetch(`${stack.paymentsSimulatorUrl}/_control/accounts`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ accessToken, webhookSecret }),
      });
      expect(registered.status).toBe(201);
      await stack.admin(
        "mercadopago",
        "set",
        "--account",
        account.accountId,
        "--access-token",
        accessToken,
        "--webhook-secret",
        webhookSecret,
      );
      const comprobante = await issue(issuer);
      const created = await http(stack, "POST", "/api/links-de-cobro", account.rw, comprobante);
      expect(created.status, created.text).toBe(201);
      const link = created.json<{ id: string; url: string }>();
      const preferenceId = new URL(link.url).searchParams.get("pref_id");
      // the simulator takes the payment and notifies the gateway, signed
      const paid = await fetch(`${stack.paymentsSimulatorUrl}/_control/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ preferenceId, notify: true }),
      });
      expect(paid.status).toBe(201);

      const payload = await arrives("/eventos", "cobro.pagado", (p) => p.data.id === link.id);
      const answer = await http(stack, "GET", `/api/links-de-cobro/${link.id}`, account.rw);
      expect(answer.status).toBe(200);
      expect(payload).toMatchObject({ tipo: "cobro.pagado", environment: env });
      expect(payload.data).toEqual(answer.json());
      expect(payload.data).toMatchObject({ estado: "pagado", monto: 1210.5, comprobante });
      await alsoAtCatchAllOnly(payload);
    });

    it("certificado.por_vencer: a certificate with 5 days left, announced once (7 days)", async () => {
      // the simulator's clock set back: the CA issues a certificate that ends in 5 days
      const offset = -(CERT_LIFETIME_MS - 5 * DAY_MS);
      await stack.sim("settings", "--environment", env, "--clock-offset-ms", String(offset));
      let expiring: Registered;
      try {
        expiring = await register(stack, dir, { accountId: account.accountId, environment: env });
      } finally {
        await stack.sim("settings", "--environment", env, "--clock-offset-ms", "0");
      }
      const notAfter = expiring.upload!.notAfter as string;
      expect(Date.parse(notAfter) - Date.now()).toBeLessThan(5 * DAY_MS);

      const payload = await arrives(
        "/eventos",
        "certificado.por_vencer",
        (p) => p.tipo === "certificado.por_vencer" && p.data.representada === expiring.cuit,
      );
      expect(payload).toMatchObject({
        environment: env,
        data: {
          representada: expiring.cuit,
          environment: env,
          notAfter: new Date(notAfter).toISOString(),
          diasRestantes: 4,
          umbral: 7,
        },
      });
      expect(payload.data.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(payload.data.serialNumber).toMatch(/^[0-9A-F]+$/);
      await alsoAtCatchAllOnly(payload);
      // later checks (one a second) announce nothing more for it; the long-lived one never
      await sleep(3_000);
      const ofIt = payloadsAt("/eventos").filter((p) => p.data.representada === expiring.cuit);
      expect(ofIt.map((p) => p.tipo)).toEqual(["certificado.por_vencer"]);
      expect(payloadsAt("/eventos").filter((p) => p.data.representada === issuer.cuit)).toEqual([]);
    });

    it("cuota.alerta: 80 % and 100 % of a small production quota, each once", async () => {
      const plan = `plan-${account.accountId.slice(0, 8)}`;
      await stack.admin("plan", "create", "--name", plan, "--facturas", "5", "--padrones", "10");
      await stack.admin("account", "plan", "--account", account.accountId, "--plan", plan);
      const produccion = await registerWsfeIssuer(
        stack,
        dir,
        account.accountId,
        "produccion",
        PTO_VTA,
      );
      const alertas = () => payloadsAt("/eventos").filter((p) => p.tipo === "cuota.alerta");
      for (let i = 0; i < 3; i++) await issue(produccion, "produccion");
      // three of five (60 %): nothing yet
      await sleep(1_500);
      expect(alertas()).toEqual([]);
      await issue(produccion, "produccion");
      const ochenta = await arrives("/eventos", "cuota.alerta 80", (p) => p.data.umbral === 80);
      expect(ochenta).not.toHaveProperty("environment");
      expect(ochenta.data).toMatchObject({ resource: "facturas", used: 4, limit: 5, umbral: 80 });
      const period = ochenta.data.period as { start: string; end: string };
      expect(Date.parse(period.start)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(period.end)).toBeGreaterThan(Date.now());
      await issue(produccion, "produccion");
      const cien = await arrives("/eventos", "cuota.alerta 100", (p) => p.data.umbral === 100);
      expect(cien.data).toMatchObject({
        resource: "facturas",
        used: 5,
        limit: 5,
        umbral: 100,
        period,
      });
      // the quota is used up: the next one is refused, and nothing is announced again
      const refused = await http(stack, "POST", "/api/wsfe/facturas", account.rw, {
        ...facturaC(produccion, "produccion"),
      });
      expect(refused.status).toBe(402);
      await sleep(1_500);
      expect(alertas().map((p) => p.data.umbral)).toEqual([80, 100]);
      await alsoAtCatchAllOnly(ochenta);
      await alsoAtCatchAllOnly(cien);
    });

    it("the stranger's catch-all endpoint received none of the account's events", () => {
      expect(received.get("/ajena")).toBeUndefined();
    });
  },
);
