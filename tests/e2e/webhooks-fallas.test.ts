import { randomUUID } from "node:crypto";
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  registerWsfeIssuer,
  scratch,
  type Account,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { newUser, PanelClient } from "../support/panel.js";
import { startTestSmtp, type ReceivedMail, type TestSmtp } from "../support/smtp.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually, sleep } from "../support/wait.js";

const env = "homologacion" as const;
const PTO_VTA = 8;
const NOT_FOUND = { error: "Webhook no encontrado", code: "WEBHOOK_NOT_FOUND" };
const FAILURE_WINDOW_MS = 2_000;
const LEASE_MS = 15_000;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

interface Endpoint {
  id: string;
  url: string;
  activo: boolean;
  fallandoDesde: string | null;
  desactivadoAt: string | null;
  desactivadoMotivo: string | null;
}

interface Entrega {
  id: string;
  eventoId: string;
  status: "pending" | "delivered" | "failed";
  intentos: number;
}

/**
 * Deliveries when things go wrong, over real processes (each its own NATS user, with the
 * generated grants): a receiver failing three times, the webhooks service killed while a
 * receiver holds a delivery open, an endpoint failing for its whole (shortened) failure window
 * — disabled and its owner e-mailed through billing, the mail service and a real SMTP server —
 * and accounts that never see each other's endpoints or deliveries.
 */
describe("webhook deliveries under failures end to end", { timeout: 120_000 }, () => {
  let stack: E2EStack;
  let dir: Scratch;
  let smtp: TestSmtp;
  let account: Account;
  let ownerEmail: string;
  let stranger: Account;
  let rep: Registered;
  let server: Server;
  let base: string;
  const received = new Map<string, Received[]>();
  // by path, the statuses to answer in order; then 200 (or 503 for the paths in `down`)
  const script = new Map<string, number[]>([["/flaky", [500, 500, 500]]]);
  const down = new Set<string>(["/caido"]);
  // the first request to /hold is left unanswered until the connection goes
  let held: ServerResponse | undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const path = req.url ?? "/";
        const first = !received.has(path);
        const status = script.get(path)?.shift() ?? (down.has(path) ? 503 : 200);
        const list = received.get(path) ?? [];
        list.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status });
        received.set(path, list);
        if (path === "/hold" && first) {
          held = res;
          return;
        }
        res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "no");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    smtp = await startTestSmtp();
    stack = await startE2EStack({
      env: {
        LOG_LEVEL: "warn",
        WEBHOOKS_RETRY_SCALE: "0.001",
        WEBHOOKS_FAILURE_WINDOW_MS: String(FAILURE_WINDOW_MS),
        WEBHOOKS_LEASE_MS: String(LEASE_MS),
        SMTP_URL: smtp.url,
        MAIL_FROM: "avisos@pasarela.test",
      },
      withNatsGrants: true,
      // a test kills the webhooks service's process alone
      topology: "processes",
    });
    dir = scratch();
    // an account signed up on the panel has an owner to be told by e-mail
    const user = newUser("Webhooks");
    await new PanelClient(stack.edgeUrl).signup(user);
    ownerEmail = user.email.toLowerCase();
    const sql = postgres(stack.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ account_id: string }[]>`
        select account_id from billing.users where email = ${ownerEmail}`;
      const accountId = row!.account_id;
      const key = async (scope: "read_only" | "read_write") =>
        `Bearer ${(await stack.admin<{ secret: string }>("key", "create", "--account", accountId, "--scope", scope)).secret}`;
      account = { accountId, rw: await key("read_write"), ro: await key("read_only") };
    } finally {
      await sql.end({ timeout: 2 });
    }
    stranger = await newAccount(stack, "Otra cuenta");
    rep = await registerWsfeIssuer(stack, dir, account.accountId, env, PTO_VTA);
  });

  afterAll(async () => {
    await stack?.teardown();
    await smtp?.stop();
    dir?.remove();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  const register = async (path: string, who: Account = account, descripcion?: string) => {
    const created = await http(stack, "POST", "/api/webhooks", who.rw, {
      url: `${base}${path}`,
      eventos: ["*"],
      ...(descripcion ? { descripcion } : {}),
    });
    expect(created.status, created.text).toBe(201);
    return created.json<Endpoint & { secreto: string }>();
  };
  const endpoint = async (id: string) => {
    const got = await http(stack, "GET", `/api/webhooks/${id}`, account.ro);
    expect(got.status, got.text).toBe(200);
    return got.json<Endpoint>();
  };
  const entregas = async (id: string) => {
    const answer = await http(stack, "GET", `/api/webhooks/${id}/entregas`, account.ro);
    expect(answer.status, answer.text).toBe(200);
    return answer.json<{ items: Entrega[] }>().items;
  };
  const arrived = (path: string, count: number) =>
    eventually(`${count} deliveries at ${path}`, () => {
      const list = received.get(path) ?? [];
      return list.length >= count ? list : undefined;
    });
  const verify = (secreto: string, delivery: Received) =>
    new Webhook(secreto).verify(delivery.body, delivery.headers as Record<string, string>);
  let cbte = 0;
  const issue = async () => {
    cbte++;
    const issued = await http(stack, "POST", "/api/wsfe/facturas", account.rw, {
      environment: env,
      representada: rep.cuit,
      ptoVta: PTO_VTA,
      cbteTipo: 11,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [
        { descripcion: `Clase ${cbte}`, cantidad: 1, precioUnitario: "1500", alicuotaIva: 0 },
      ],
    });
    expect(issued.status, issued.text).toBe(200);
  };

  it("retries a receiver answering 500 three times until its 200, with one webhook-id; keeps accounts apart", async () => {
    const flaky = await register("/flaky");
    const ajena = await register("/ajena", stranger);
    await issue();

    const attempts = await arrived("/flaky", 4);
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 500, 200]);
    const ids = new Set(attempts.map((a) => a.headers["webhook-id"]));
    expect(ids.size).toBe(1);
    const payload = verify(flaky.secreto, attempts[0]!) as { id: string; tipo: string };
    expect(payload).toMatchObject({
      id: attempts[0]!.headers["webhook-id"],
      tipo: "comprobante.autorizado",
    });
    for (const attempt of attempts) expect(verify(flaky.secreto, attempt)).toEqual(payload);

    // a wrong secret, or a body changed on the way, does not verify
    expect(() => verify(ajena.secreto, attempts[3]!)).toThrow();
    expect(() =>
      verify(flaky.secreto, { ...attempts[3]!, body: attempts[3]!.body.replace("1500", "9999") }),
    ).toThrow();

    const [log] = await eventually("the delivery recorded", async () => {
      const items = await entregas(flaky.id);
      return items[0]?.status === "delivered" ? items : undefined;
    });
    expect(log).toMatchObject({ eventoId: payload.id, intentos: 4 });

    // the other account's endpoint got nothing, and neither account sees the other's endpoint
    await sleep(1_000);
    expect(received.get("/ajena")).toBeUndefined();
    for (const [who, id] of [
      [stranger, flaky.id],
      [account, ajena.id],
    ] as const) {
      for (const path of [`/api/webhooks/${id}`, `/api/webhooks/${id}/entregas`]) {
        const answer = await http(stack, "GET", path, who.ro);
        expect(answer.status).toBe(404);
        expect(answer.json()).toEqual(NOT_FOUND);
      }
      const patched = await http(stack, "PATCH", `/api/webhooks/${id}`, who.rw, { activo: false });
      expect(patched.json()).toEqual(NOT_FOUND);
    }
    const unknown = await http(stack, "GET", `/api/webhooks/${randomUUID()}`, account.ro);
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual(NOT_FOUND);
  });

  it("delivers after the webhooks service is killed mid-delivery, never repeating an acknowledged one", async () => {
    const ok = await register("/ok");
    const hold = await register("/hold");
    await issue();

    const [delivered] = await arrived("/ok", 1);
    const eventoId = delivered!.headers["webhook-id"];
    await eventually("the acknowledged delivery recorded", async () => {
      const [item] = await entregas(ok.id);
      return item?.status === "delivered" ? item : undefined;
    });
    await eventually("the delivery held open by its receiver", () => held);
    const pid = stack.pid("webhooks");
    expect(pid).toBeDefined();
    process.kill(pid!, "SIGKILL");
    await eventually("the webhooks service restarted", () => {
      const now = stack.pid("webhooks");
      return now !== undefined && now !== pid ? now : undefined;
    });

    // once the dead attempt's lease ends, the restarted service makes it again
    const [first, again] = await arrived("/hold", 2);
    expect(again!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(again!.headers["webhook-id"]).toBe(eventoId);
    expect(verify(hold.secreto, again!)).toEqual(verify(hold.secreto, first!));
    await eventually("the held delivery recorded", async () => {
      const [item] = await entregas(hold.id);
      return item?.status === "delivered" ? item : undefined;
    });
    await sleep(1_500);
    expect(received.get("/ok")).toHaveLength(1);
    expect(await entregas(ok.id)).toMatchObject([{ status: "delivered", intentos: 1 }]);
    expect(stack.restarts().webhooks).toBe(1);
  });

  it("disables an endpoint failing for its whole failure window and e-mails the account's owner once", async () => {
    const caido = await register("/caido", account, "ERP de prueba");
    await issue();

    const disabled = await eventually("the endpoint disabled", async () => {
      const got = await endpoint(caido.id);
      return got.activo ? undefined : got;
    });
    expect(
      Date.parse(disabled.desactivadoAt!) - Date.parse(disabled.fallandoDesde!),
    ).toBeGreaterThanOrEqual(FAILURE_WINDOW_MS);
    expect(disabled.desactivadoMotivo).toContain("Último intento: HTTP 503: no");

    const mail = await eventually("the owner's e-mail", () =>
      smtp.received.find((m: ReceivedMail) => m.rcptTo.includes(ownerEmail)),
    );
    expect(mail.parsed.subject).toBe(`Webhook desactivado: ${base}/caido`);
    const text = mail.parsed.text ?? "";
    expect(text).toContain(`Desactivamos el webhook ${base}/caido (ERP de prueba)`);
    expect(text).toContain(`Id del webhook: ${caido.id}`);
    expect(text).toContain("Último intento: HTTP 503: no");
    expect(text).toContain(`PATCH /api/webhooks/${caido.id}`);
    expect(text).toContain(`{"activo": true}`);

    // no more attempts while disabled, and one e-mail only
    const attempts = received.get("/caido")!.length;
    await sleep(1_500);
    expect(received.get("/caido")).toHaveLength(attempts);
    expect(smtp.received.filter((m) => m.rcptTo.includes(ownerEmail))).toHaveLength(1);

    // the receiver mended and the endpoint enabled again: its pending delivery is made
    down.delete("/caido");
    const enabled = await http(stack, "PATCH", `/api/webhooks/${caido.id}`, account.rw, {
      activo: true,
    });
    expect(enabled.status, enabled.text).toBe(200);
    expect(enabled.json()).toMatchObject({
      activo: true,
      fallandoDesde: null,
      desactivadoAt: null,
      desactivadoMotivo: null,
    });
    await eventually("the pending delivery made", async () => {
      const [item] = await entregas(caido.id);
      return item?.status === "delivered" ? item : undefined;
    });
    expect(received.get("/caido")!.at(-1)!.status).toBe(200);
  });
});
