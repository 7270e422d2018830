import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
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
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually, sleep } from "../support/wait.js";

const env = "homologacion" as const;
const ISSUANCES = Number(process.env.OUTAGE_ISSUANCES ?? 200);
const OUTAGE_MS = Number(process.env.OUTAGE_MS ?? 60_000);
const SERIES = [
  [1, 11],
  [2, 11],
  [1, 6],
  [2, 6],
] as const;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface EmisionBody {
  id: string;
  estado: string;
  intentos: number;
  respuesta?: { status: number; body: Record<string, unknown> };
}

/**
 * The authority fails every FECAESolicitar for a minute while asynchronous issuances arrive
 * on four series. Every one is answered 202 at once; once the authority is back, each ends
 * authorized exactly once (the simulator's own vouchers say so), every series without a gap,
 * and each voucher's webhook arrives once per event id, verified with standardwebhooks.
 */
describe("asynchronous issuance through an authority outage", { timeout: 420_000 }, () => {
  let stack: E2EStack;
  let dir: Scratch;
  let control: ControlClient;
  let sql: postgres.Sql;
  let account: Account;
  let rep: Registered;
  let server: Server;
  let secreto: string;
  const received: Received[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stack = await startE2EStack({
      env: {
        LOG_LEVEL: "warn",
        AUTHORITY_TIMEOUT_MS: "3000",
        API_TIMEOUT_MS: "12000",
        ASYNC_ISSUANCE_RETRY_MAX: "5s",
        ASYNC_ISSUANCE_POLL_MS: "250",
        WEBHOOKS_RETRY_SCALE: "0.001",
      },
    });
    dir = scratch();
    control = makeControlClient(stack.simulatorUrl!);
    sql = postgres(stack.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    account = await newAccount(stack, "Tienda sin cortes");
    rep = await register(stack, dir, {
      accountId: account.accountId,
      environment: env,
      delegate: ["wsfe"],
      pos: [1, 2].map((ptoVta) => ({ ptoVta, service: "wsfe" as const })),
    });
    const port = (server.address() as AddressInfo).port;
    const created = await http(stack, "POST", "/api/webhooks", account.rw, {
      url: `http://127.0.0.1:${port}/pasarela`,
      eventos: ["comprobante.autorizado"],
    });
    expect(created.status, created.text).toBe(201);
    secreto = created.json<{ secreto: string }>().secreto;
  });

  afterAll(async () => {
    await control?.setFault(env, { service: "wsfe", mode: "none" }).catch(() => {});
    await sql?.end({ timeout: 2 });
    await stack?.teardown();
    dir?.remove();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  function bodyFor(i: number) {
    const [ptoVta, cbteTipo] = SERIES[i % SERIES.length]!;
    return {
      environment: env,
      representada: rep.cuit,
      ptoVta,
      cbteTipo,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [
        {
          descripcion: `Artículo ${i}`,
          cantidad: 1,
          precioUnitario: `${100 + i}.50`,
          alicuotaIva: cbteTipo === 11 ? 0 : 21,
        },
      ],
    };
  }

  it(`${ISSUANCES} issuances on ${SERIES.length} series wait out ${OUTAGE_MS / 1000} s of failures and end authorized once`, async () => {
    await control.setFault(env, {
      service: "wsfe",
      mode: "error-501",
      operation: "FECAESolicitar",
    });
    const outageStarted = Date.now();
    const keys = Array.from({ length: ISSUANCES }, (_, i) => `corte-${outageStarted}-${i}`);
    const locations: string[] = new Array<string>(ISSUANCES);
    const statuses = new Map<number, number>();
    // they arrive over the outage's first part, twenty callers at a time
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < ISSUANCES) {
          const i = next++;
          const response = await fetch(`${stack.edgeUrl}/api/wsfe/facturas`, {
            method: "POST",
            headers: {
              authorization: account.rw,
              "content-type": "application/json",
              "idempotency-key": keys[i]!,
              prefer: "respond-async",
            },
            body: JSON.stringify(bodyFor(i)),
          });
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          locations[i] = response.headers.get("location") ?? "";
        }
      }),
    );
    const accepted = Date.now() - outageStarted;
    expect(Object.fromEntries(statuses)).toEqual({ 202: ISSUANCES });
    // while the authority fails nothing is authorized, and everything keeps being tried
    const failedCalls = () => control.stats(env).then((s) => s.requests.FECAESolicitar ?? 0);
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - outageStarted)));
    const tried = await failedCalls();
    const during = await sql<{ estado: string; n: string }[]>`
      select estado, count(*)::text as n from wsfe.emisiones
      where llave like ${`corte-${outageStarted}-%`} group by estado`;
    expect(during).toEqual([{ estado: "pendiente", n: String(ISSUANCES) }]);
    await control.setFault(env, { service: "wsfe", mode: "none" });
    const recovered = Date.now();

    const finals = await eventually(
      "every issuance ended",
      async () => {
        const rows = await sql<{ estado: string; answer: { factura?: Record<string, unknown> } }[]>`
          select estado, answer from wsfe.emisiones
          where llave like ${`corte-${outageStarted}-%`} and estado <> 'pendiente'`;
        return rows.length === ISSUANCES ? rows : undefined;
      },
      { timeoutMs: 180_000, intervalMs: 1_000 },
    );
    const drained = Date.now() - recovered;
    expect(finals.map((f) => f.estado)).toEqual(keys.map(() => "autorizado"));
    // each key: exactly one authorized voucher of the gateway's
    const perKey = await sql<{ n: string }[]>`
      select count(*)::text as n from wsfe.comprobantes
      where idempotency_key like ${`corte-${outageStarted}-%`} and state = 'authorized'
      group by idempotency_key`;
    expect(perKey).toHaveLength(ISSUANCES);
    expect(perKey.every((k) => k.n === "1")).toBe(true);
    // the authority's side: every CAE once, every series without a gap
    const { series } = await control.vouchers(env);
    const caes = new Set<string>();
    for (const [ptoVta, cbteTipo] of SERIES) {
      const held = series[`${rep.cuit}|${ptoVta}|${cbteTipo}`]!;
      const numbers = held.vouchers.map((v) => v.cbteNro);
      expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
      for (const v of held.vouchers) caes.add(v.cae);
    }
    expect(caes.size).toBe(ISSUANCES);
    for (const f of finals) expect(caes.has(String(f.answer.factura?.cae))).toBe(true);
    // the sample the API answers agrees
    const sample = await http(stack, "GET", locations[0]!, account.ro);
    expect(sample.json<EmisionBody>()).toMatchObject({ estado: "autorizado" });

    // one verified delivery per voucher, each event id once
    await eventually(
      "a webhook per voucher",
      () => (received.length >= ISSUANCES ? received : undefined),
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    await sleep(1_000);
    const ids = received.map((r) => String(r.headers["webhook-id"]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(ISSUANCES);
    const wh = new Webhook(secreto);
    const delivered = new Set<string>();
    for (const r of received) {
      const payload = wh.verify(r.body, r.headers as Record<string, string>) as {
        tipo: string;
        data: { cae: string };
      };
      expect(payload.tipo).toBe("comprobante.autorizado");
      delivered.add(payload.data.cae);
    }
    expect(delivered).toEqual(caes);
    console.log(
      `outage: ${ISSUANCES} issuances accepted in ${accepted} ms (all 202); ${tried} FECAESolicitar ` +
        `failed over ${OUTAGE_MS} ms; all authorized ${drained} ms after recovery`,
    );
  });
});
