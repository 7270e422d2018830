import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  registerWsfeIssuer,
  scratch,
  type Account,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { newUser, PanelClient } from "../support/panel.js";
import { startTestSmtp, type TestSmtp } from "../support/smtp.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually, sleep } from "../support/wait.js";

const env = "homologacion" as const;
const CAE_PTO_VTA = 3;
const CAEA_PTO_VTA = 90;

interface Payload {
  id: string;
  tipo: string;
  data: {
    comprobante: { ptoVta: number; cbteNro: number };
    caea: string;
    observaciones: { code: number }[];
    errores?: { code: number }[];
  };
}

interface Stored {
  id: string;
  cbte_nro: string;
  state: string;
  caea_estado: string | null;
  caea_failure: Record<string, unknown> | null;
}

/**
 * Informing the vouchers issued in CAEA contingency, through the running stack with every
 * process on its own NATS grants: issued while FECAEARegInformativo fails, they are informed
 * once it answers; a wsfe killed in the middle of informing leaves nothing informed twice or
 * behind; a voucher the authority refuses at informing becomes caea_rechazado, with a signed
 * webhook and an e-mail to the owner, and holds the numbers after it. What was informed is read
 * from the simulator's own state.
 */
describe("CAEA contingency: informing", { timeout: 240_000 }, () => {
  let stack: E2EStack;
  let dir: Scratch;
  let smtp: TestSmtp;
  let control: ControlClient;
  let sql: postgres.Sql;
  let server: Server;
  let base: string;
  let account: Account;
  let rep: Registered;
  let caea: string;
  let secreto: string;
  const owner = newUser("Contingencia");
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(200).end("ok");
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
        CAEA_CHECK_INTERVAL_MS: "1000",
        CAEA_INFORM_INTERVAL_MS: "300",
        CAEA_INFORM_RETRY_MAX: "1000",
        AUTHORITY_TIMEOUT_MS: "4000",
        API_TIMEOUT_MS: "20000",
      },
      withNatsGrants: true,
      // a test kills wsfe's process alone
      topology: "processes",
    });
    dir = scratch();
    control = makeControlClient(stack.simulatorUrl!);
    sql = postgres(stack.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    // an account signed up on the panel: its owner is who the gateway e-mails
    await new PanelClient(stack.edgeUrl).signup(owner);
    const [user] = await sql<{ account_id: string }[]>`
      select account_id from billing.users where email = ${owner.email}`;
    const accountId = user!.account_id;
    const key = async (scope: string) =>
      `Bearer ${(await stack.admin<{ secret: string }>("key", "create", "--account", accountId, "--scope", scope)).secret}`;
    account = { accountId, rw: await key("read_write"), ro: await key("read_only") };
    rep = await registerWsfeIssuer(stack, dir, accountId, env, CAE_PTO_VTA);
    await control.enablePointOfSale(env, {
      cuit: rep.cuit,
      ptoVta: CAEA_PTO_VTA,
      emisionTipo: "CAEA",
    });
    const on = await http(stack, "PATCH", `/api/representadas/${rep.representadaId}`, account.rw, {
      contingencia: { caea: true, puntosDeVenta: [CAEA_PTO_VTA] },
    });
    expect(on.status, on.text).toBe(200);
    caea = await eventually(
      "the fortnight's CAEA",
      async () => {
        const shown = await http(
          stack,
          "GET",
          `/api/representadas/${rep.representadaId}`,
          account.rw,
        );
        return shown.json<{ caea: { actual: { caea: string } | null } | null }>().caea?.actual
          ?.caea;
      },
      { timeoutMs: 30_000, intervalMs: 300 },
    );
    const created = await http(stack, "POST", "/api/webhooks", account.rw, {
      url: `${base}/caea`,
      eventos: ["comprobante.caea_informado", "comprobante.caea_rechazado"],
    });
    expect(created.status, created.text).toBe(201);
    secreto = created.json<{ secreto: string }>().secreto;
  }, 180_000);

  afterAll(async () => {
    await control?.setFault(env, { service: "wsfe", mode: "none" }).catch(() => {});
    await sql?.end({ timeout: 2 });
    await stack?.teardown();
    await smtp?.stop();
    dir?.remove();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Issues a voucher C in contingency (the till offline): answered at once under the CAEA. */
  async function issueOffline(precio: string, moneda?: { id: string; cotizacion: string }) {
    const answer = await http(stack, "POST", "/api/wsfe/facturas", account.rw, {
      environment: env,
      representada: rep.cuit,
      ptoVta: CAE_PTO_VTA,
      cbteTipo: 11,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [{ descripcion: "Café", cantidad: 1, precioUnitario: precio, alicuotaIva: 0 }],
      contingencia: "caea",
      ...(moneda ? { moneda } : {}),
    });
    expect(answer.status, answer.text).toBe(200);
    const factura = answer.json<{ ptoVta: number; cbteNro: number; tipoAutorizacion: string }>();
    expect(factura).toMatchObject({ ptoVta: CAEA_PTO_VTA, tipoAutorizacion: "CAEA" });
    return factura.cbteNro;
  }

  const stored = (numbers: number[]) =>
    sql<Stored[]>`
      select id, cbte_nro, state, caea_estado, caea_failure from wsfe.comprobantes
      where cuit = ${rep.cuit} and pto_vta = ${CAEA_PTO_VTA} and cbte_nro in ${sql(numbers)}
      order by cbte_nro`;
  /** The numbers of the CAEA point of sale the simulator holds as informed, in order. */
  const informed = async () =>
    (await control.caeas(env, rep.cuit)).caeas
      .flatMap((c) => c.vouchers)
      .filter((v) => v.ptoVta === CAEA_PTO_VTA)
      .map((v) => v.cbteNro);
  /** The deliveries received, each verified with the endpoint's secret. */
  const payloads = (): Payload[] =>
    received.map(
      (d) => new Webhook(secreto).verify(d.body, d.headers as Record<string, string>) as Payload,
    );
  const deliveredFor = (tipo: string, numbers: number[]) =>
    payloads().filter((p) => p.tipo === tipo && numbers.includes(p.data.comprobante.cbteNro));
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i);

  it("informs what was issued while the authority could not take it, once it answers", async () => {
    await control.setFault(env, {
      service: "wsfe",
      mode: "unavailable",
      operation: "FECAEARegInformativo",
    });
    const numbers = [
      await issueOffline("100"),
      await issueOffline("110"),
      await issueOffline("120"),
    ];
    expect(numbers).toEqual([1, 2, 3]);
    await sleep(1_500);
    expect(await informed()).toEqual([]);
    expect((await stored(numbers)).map((r) => r.caea_estado)).toEqual(Array(3).fill("pendiente"));

    await control.setFault(env, { service: "wsfe", mode: "none" });
    await eventually(
      "every voucher informed",
      async () =>
        (await stored(numbers)).every((r) => r.caea_estado === "informado") ? true : undefined,
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    // the authority holds each once, as a CAEA voucher under this CAEA
    expect(await informed()).toEqual([1, 2, 3]);
    const held = (await control.caeas(env, rep.cuit)).caeas.find((c) => c.caea === caea)!;
    expect(held.vouchers.map((v) => v.cbteNro)).toEqual([1, 2, 3]);
    // and the gateway's lookup of the authority says so
    const lookup = await http(stack, "POST", "/api/wsfe/comprobante", account.ro, {
      environment: env,
      representada: rep.cuit,
      ptoVta: CAEA_PTO_VTA,
      cbteTipo: 11,
      cbteNro: 2,
    });
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.json()).toMatchObject({
      found: true,
      codAutorizacion: caea,
      emisionTipo: "CAEA",
      cbteDesde: 2,
    });
    const delivered = await eventually(
      "the caea_informado webhooks",
      () => {
        const found = deliveredFor("comprobante.caea_informado", numbers);
        return found.length >= 3 ? found : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(delivered.map((p) => p.data.comprobante.cbteNro).sort()).toEqual([1, 2, 3]);
    expect(new Set(delivered.map((p) => p.id)).size).toBe(3);
    expect(delivered[0]!.data.caea).toBe(caea);
  });

  it("informs nothing twice and leaves nothing behind when wsfe is killed while informing", async () => {
    // each FECAEARegInformativo takes 2 s to be answered: the kill lands inside one
    await control.setFault(env, {
      service: "wsfe",
      mode: "none",
      latencyMs: 2_000,
      latencyOperation: "FECAEARegInformativo",
    });
    const before = (await control.stats(env)).requests.FECAEARegInformativo ?? 0;
    const numbers: number[] = [];
    for (let i = 0; i < 4; i++) numbers.push(await issueOffline(String(200 + i)));
    expect(numbers).toEqual(range(4, 7));
    await eventually(
      "an informing under way",
      async () =>
        ((await control.stats(env)).requests.FECAEARegInformativo ?? 0) > before ? true : undefined,
      { timeoutMs: 10_000, intervalMs: 20 },
    );
    const pid = stack.pid("wsfe");
    expect(pid).toBeDefined();
    process.kill(pid!, "SIGKILL");
    // the answer of that call is lost with the process (whether the authority still took it or
    // not, the restarted wsfe finds out from its count before sending anything again)
    await sleep(2_500);
    await control.setFault(env, { service: "wsfe", mode: "none" });
    await eventually(
      "every voucher informed after the restart",
      async () =>
        (await stored(numbers)).every((r) => r.caea_estado === "informado") ? true : undefined,
      { timeoutMs: 45_000, intervalMs: 300 },
    );
    expect(await informed()).toEqual(range(1, 7));
    expect(stack.pid("wsfe")).not.toBe(pid);
    const delivered = await eventually(
      "one caea_informado webhook per voucher",
      () => {
        const found = deliveredFor("comprobante.caea_informado", numbers);
        return new Set(found.map((p) => p.id)).size >= 4 ? found : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    // a republished event carries the same id: one delivery per voucher
    expect(delivered).toHaveLength(4);
  });

  it("rejects a voucher the authority refuses at informing, tells the account, holds the next", async () => {
    // the till, offline, took the dollar at 1 peso: the authority's rate is 1000 (10119)
    await control.setCotizacion(env, { monId: "DOL", cotiz: 1000 });
    const rejected = await issueOffline("10", { id: "DOL", cotizacion: "1" });
    const next = await issueOffline("300");
    expect([rejected, next]).toEqual([8, 9]);
    const [row] = await eventually(
      "the voucher rejected at informing",
      async () => {
        const rows = await stored([rejected]);
        return rows[0]?.state === "caea_rechazado" ? rows : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    expect(row!.caea_estado).toBe("rechazado");
    const [webhook] = await eventually(
      "the caea_rechazado webhook",
      () => {
        const found = deliveredFor("comprobante.caea_rechazado", [rejected]);
        return found.length > 0 ? found : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(webhook!.data.observaciones.map((o) => o.code)).toContain(10119);
    const email = await eventually(
      "the owner's e-mail",
      () =>
        smtp.received.find(
          (m) =>
            m.rcptTo.includes(owner.email.toLowerCase()) &&
            (m.parsed.subject ?? "").includes("rechazó"),
        ),
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    expect(email.parsed.text).toContain("10119");
    expect(email.parsed.text).toContain(`00090-${String(rejected).padStart(8, "0")}`);

    // the authority takes only the next number: the voucher after it waits, pending and held
    await sleep(1_500);
    const [held] = await stored([next]);
    expect(held).toMatchObject({ state: "authorized", caea_estado: "pendiente" });
    expect(held!.caea_failure).toMatchObject({
      reason: "blocked by a voucher rejected at informing",
      cbteNro: rejected,
    });
    expect(await informed()).toEqual(range(1, 7));
    // told once
    expect(deliveredFor("comprobante.caea_rechazado", [rejected])).toHaveLength(1);
  });
  it("declares a contingency point of sale that issued nothing once its fortnight ended, by the authority's clock", async () => {
    const quiet = await registerWsfeIssuer(stack, dir, account.accountId, env, CAE_PTO_VTA);
    await control.enablePointOfSale(env, {
      cuit: quiet.cuit,
      ptoVta: CAEA_PTO_VTA,
      emisionTipo: "CAEA",
    });
    const on = await http(
      stack,
      "PATCH",
      `/api/representadas/${quiet.representadaId}`,
      account.rw,
      {
        contingencia: { caea: true, puntosDeVenta: [CAEA_PTO_VTA] },
      },
    );
    expect(on.status, on.text).toBe(200);
    const actual = await eventually(
      "the quiet representada's CAEA",
      async () =>
        (await http(stack, "GET", `/api/representadas/${quiet.representadaId}`, account.rw)).json<{
          caea: { actual: { caea: string; fchVigHasta: string } | null } | null;
        }>().caea?.actual ?? undefined,
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    // the fortnight is over by the authority's clock (two days after its last day, before its
    // FchTopeInf); the gateway's own clock stays where it is
    const hasta = actual.fchVigHasta;
    const ended = Date.UTC(+hasta.slice(0, 4), +hasta.slice(4, 6) - 1, +hasta.slice(6, 8) + 2, 15);
    await control.settings(env, { clockOffsetMs: ended - Date.now() });
    try {
      const declared = await eventually(
        "the no-movement declaration",
        async () => {
          const held = (await control.caeas(env, quiet.cuit)).caeas.find(
            (c) => c.caea === actual.caea,
          );
          return held && held.sinMovimiento.length > 0 ? held.sinMovimiento : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 300 },
      );
      expect(declared.map((d) => d.ptoVta)).toEqual([CAEA_PTO_VTA]);
      // declared once, however many passes ran
      await sleep(1_500);
      const again = (await control.caeas(env, quiet.cuit)).caeas.find(
        (c) => c.caea === actual.caea,
      );
      expect(again!.sinMovimiento).toHaveLength(1);
      // the representada that did issue under its CAEA is not declared
      const busy = (await control.caeas(env, rep.cuit)).caeas.find((c) => c.caea === caea);
      expect(busy!.sinMovimiento).toEqual([]);
    } finally {
      await control.settings(env, { clockOffsetMs: 0 });
    }
  });
});
