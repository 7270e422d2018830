import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  newAccount,
  registerWsfeIssuer,
  scratch,
  type Account,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually, sleep } from "../support/wait.js";

const env = "homologacion" as const;
const PTO_VTA = 7;
const MAX_AGE_MS = 15_000;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

interface EmisionBody {
  id: string;
  estado: string;
  intentos: number;
  idempotencyKey: string | null;
  proximoIntento: string | null;
  respuesta?: { status: number; body: Record<string, unknown> };
}

/**
 * Asynchronous issuance (`Prefer: respond-async`) through the running stack: 202 with Location
 * once everything but the authority was judged, the issuance carried out from the queue, its
 * state at the Location, the same issuance under one Idempotency-Key whether asked for
 * synchronously or not, and an issuance the authority never lets through ending `no_emitido`
 * with its key and quota given back. The simulator's own state proves what was issued.
 */
describe("asynchronous issuance end to end", { timeout: 180_000 }, () => {
  let stack: E2EStack;
  let dir: Scratch;
  let control: ControlClient;
  let sql: postgres.Sql;
  let account: Account;
  let other: Account;
  let rep: Registered;
  let server: Server;
  let receiverUrl: string;
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  let keyN = 0;
  const newKey = () => `async-${Date.now()}-${keyN++}`;

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
    receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/eventos`;
    stack = await startE2EStack({
      env: {
        LOG_LEVEL: "warn",
        AUTHORITY_TIMEOUT_MS: "4000",
        API_TIMEOUT_MS: "12000",
        ASYNC_ISSUANCE_MAX_AGE: `${MAX_AGE_MS}ms`,
        ASYNC_ISSUANCE_RETRY_MAX: "2s",
        ASYNC_ISSUANCE_POLL_MS: "200",
      },
    });
    dir = scratch();
    control = makeControlClient(stack.simulatorUrl!);
    sql = postgres(stack.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    [account, other] = await Promise.all([
      newAccount(stack, "Asincrónica"),
      newAccount(stack, "Otra cuenta"),
    ]);
    rep = await registerWsfeIssuer(stack, dir, account.accountId, env, PTO_VTA);
  });

  afterAll(async () => {
    await control?.setFault(env, { service: "wsfe", mode: "none" }).catch(() => {});
    await sql?.end({ timeout: 2 });
    await stack?.teardown();
    dir?.remove();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  const facturaC = (precio = "1000", extra: Record<string, unknown> = {}) => ({
    environment: env,
    representada: rep.cuit,
    ptoVta: PTO_VTA,
    cbteTipo: 11,
    concepto: 1,
    docTipo: 99,
    docNro: "0",
    condicionIvaReceptorId: 5,
    items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: precio, alicuotaIva: 0 }],
    ...extra,
  });

  async function http(
    method: string,
    path: string,
    options: { body?: unknown; key?: string; async?: boolean; who?: string } = {},
  ): Promise<Answer> {
    const response = await fetch(`${stack.edgeUrl}${path}`, {
      method,
      headers: {
        authorization: options.who ?? account.rw,
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...(options.key === undefined ? {} : { "idempotency-key": options.key }),
        ...(options.async ? { prefer: "respond-async" } : {}),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: <T>() => JSON.parse(text) as T,
    };
  }
  const issueAsync = (body: unknown, key?: string, who?: string) =>
    http("POST", "/api/wsfe/facturas", {
      body,
      async: true,
      ...(key === undefined ? {} : { key }),
      ...(who === undefined ? {} : { who }),
    });

  /** The issuance at `location` once it left `pendiente`. */
  async function ended(location: string, withinMs = 30_000): Promise<EmisionBody> {
    const until = Date.now() + withinMs;
    for (;;) {
      const state = await http("GET", location);
      expect(state.status, state.text).toBe(200);
      const body = state.json<EmisionBody>();
      if (body.estado !== "pendiente") return body;
      if (Date.now() > until) throw new Error(`still pending: ${state.text}`);
      await sleep(200);
    }
  }
  const solicitados = async () => (await control.stats(env)).requests.FECAESolicitar ?? 0;

  it("answers 202 with Location, then the voucher is authorized and its state says so", async () => {
    const answer = await issueAsync(facturaC("1500"));
    expect(answer.status, answer.text).toBe(202);
    const location = answer.headers.get("location")!;
    expect(location).toMatch(/^\/api\/wsfe\/facturas\/[0-9a-f-]{36}$/);
    expect(answer.headers.get("preference-applied")).toBe("respond-async");
    const queued = answer.json<EmisionBody>();
    expect(queued).toMatchObject({ estado: "pendiente", idempotencyKey: null });
    expect(location.endsWith(queued.id)).toBe(true);

    const done = await ended(location);
    expect(done.estado).toBe("autorizado");
    expect(done.respuesta?.status).toBe(200);
    const factura = done.respuesta!.body;
    expect(factura).toMatchObject({ resultado: "A", ptoVta: PTO_VTA, cbteTipo: 11 });
    expect(factura.cae).toMatch(/^\d{14}$/);
    // the authority holds exactly that voucher
    const { series } = await control.vouchers(env);
    const held = series[`${rep.cuit}|${PTO_VTA}|11`];
    expect(held?.vouchers.some((v) => v.cbteNro === factura.cbteNro && v.cae === factura.cae)).toBe(
      true,
    );
    // the same state under another account is an unknown id; the export twin does not name it
    expect((await http("GET", location, { who: other.rw })).status).toBe(404);
    expect((await http("GET", `/api/wsfex/facturas/${queued.id}`)).status).toBe(404);
    expect((await http("GET", "/api/wsfe/facturas/no-es-un-id")).status).toBe(404);
  });

  it("judges everything but the authority at once: 400, 403 and 422 never queue", async () => {
    const before = await sql<{ n: string }[]>`select count(*)::text as n from wsfe.emisiones`;
    const { representada: _r, ...sinRepresentada } = facturaC();
    const missing = await issueAsync(sinRepresentada);
    expect(missing.status, missing.text).toBe(400);
    expect(missing.json()).toMatchObject({ code: "INVALID_FIELD" });
    const readOnly = await issueAsync(facturaC(), undefined, account.ro);
    expect(readOnly.status, readOnly.text).toBe(403);
    const unknown = await issueAsync({ ...facturaC(), representada: "20111111112" });
    expect(unknown.status, unknown.text).toBe(403);
    const after = await sql<{ n: string }[]>`select count(*)::text as n from wsfe.emisiones`;
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("one Idempotency-Key is one issuance, asked for asynchronously or not", async () => {
    const key = newKey();
    const first = await issueAsync(facturaC("2100"), key);
    expect(first.status, first.text).toBe(202);
    const { id } = first.json<EmisionBody>();
    // asked again before it ended or after: the same issuance
    const again = await issueAsync(facturaC("2100"), key);
    expect([200, 202]).toContain(again.status);
    if (again.status === 202) expect(again.json<EmisionBody>().id).toBe(id);
    // a synchronous retry under the key answers the queued issuance's voucher
    const sync = await http("POST", "/api/wsfe/facturas", { body: facturaC("2100"), key });
    expect(sync.status, sync.text).toBe(200);
    const done = await ended(first.headers.get("location")!);
    expect(done.respuesta?.body.cae).toBe(sync.json().cae);
    // another body under the key is refused, queued or not
    const otherBody = await issueAsync(facturaC("2200"), key);
    expect(otherBody.status, otherBody.text).toBe(422);
    expect(otherBody.json()).toMatchObject({ code: "IDEMPOTENCY_KEY_REUSED" });
    const vouchers = await sql<{ state: string }[]>`
      select state from wsfe.comprobantes where idempotency_key = ${key}`;
    expect(vouchers.map((v) => v.state)).toEqual(["authorized"]);

    // a key a synchronous issuance completed: the asynchronous call replays its answer
    const syncKey = newKey();
    const syncFirst = await http("POST", "/api/wsfe/facturas", {
      body: facturaC("2300"),
      key: syncKey,
    });
    expect(syncFirst.status, syncFirst.text).toBe(200);
    const count = await solicitados();
    const replay = await issueAsync(facturaC("2300"), syncKey);
    expect(replay.status, replay.text).toBe(200);
    expect(replay.text).toBe(syncFirst.text);
    expect(await solicitados()).toBe(count);
  });

  it("waits through an authority outage and issues each voucher once, numbered in order", async () => {
    await control.setFault(env, {
      service: "wsfe",
      mode: "error-501",
      operation: "FECAESolicitar",
    });
    const keys = Array.from({ length: 6 }, () => newKey());
    const locations: string[] = [];
    for (const [i, key] of keys.entries()) {
      const answer = await issueAsync(facturaC(String(3000 + i)), key);
      expect(answer.status, answer.text).toBe(202);
      locations.push(answer.headers.get("location")!);
    }
    // they are tried, and wait
    await sleep(3_000);
    for (const location of locations) {
      const state = (await http("GET", location)).json<EmisionBody>();
      expect(state.estado).toBe("pendiente");
      expect(state.intentos).toBeGreaterThanOrEqual(1);
    }
    await control.setFault(env, { service: "wsfe", mode: "none" });
    const finals = await Promise.all(locations.map((location) => ended(location)));
    expect(finals.map((f) => f.estado)).toEqual(keys.map(() => "autorizado"));
    const numbers = finals.map((f) => Number(f.respuesta!.body.cbteNro)).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(numbers.length);
    const { series } = await control.vouchers(env);
    const held = series[`${rep.cuit}|${PTO_VTA}|11`]!;
    for (const f of finals) {
      expect(held.vouchers.filter((v) => v.cae === f.respuesta!.body.cae)).toHaveLength(1);
    }
    // no gap in the series
    const all = held.vouchers.map((v) => v.cbteNro).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => all[0]! + i));
  });

  it("an issuance the authority never lets through ends no_emitido, and its key is free", async () => {
    const webhook = await http("POST", "/api/webhooks", {
      body: { url: receiverUrl, eventos: ["comprobante.no_emitido"] },
    });
    expect(webhook.status, webhook.text).toBe(201);
    await control.setFault(env, {
      service: "wsfe",
      mode: "error-501",
      operation: "FECAESolicitar",
    });
    try {
      const key = newKey();
      const answer = await issueAsync(facturaC("4100"), key);
      expect(answer.status, answer.text).toBe(202);
      const done = await ended(answer.headers.get("location")!, MAX_AGE_MS + 30_000);
      expect(done.estado).toBe("no_emitido");
      expect(done.respuesta).toMatchObject({
        status: 502,
        body: { code: "ASYNC_ISSUANCE_EXPIRED" },
      });
      expect(done.intentos).toBeGreaterThan(1);
      // the key stays this issuance's: asked again, the same answer
      const again = await issueAsync(facturaC("4100"), key);
      expect(again.status).toBe(502);
      expect(again.json()).toMatchObject({ code: "ASYNC_ISSUANCE_EXPIRED" });
      // billing gave the key back: nothing is held under it
      const held = await sql<{ state: string }[]>`
        select state from billing.idempotency_records where key = ${key}`;
      expect(held).toEqual([]);
      // its webhook names the issuance and why, signed
      const delivery = await eventually("the no_emitido webhook", () =>
        received.find((r) => r.body.includes(done.id)),
      );
      const payload = new Webhook(webhook.json<{ secreto: string }>().secreto).verify(
        delivery.body,
        delivery.headers as Record<string, string>,
      );
      expect(payload).toMatchObject({
        tipo: "comprobante.no_emitido",
        data: {
          emisionId: done.id,
          tipo: "factura",
          idempotencyKey: key,
          error: { code: "ASYNC_ISSUANCE_EXPIRED" },
        },
      });
    } finally {
      await control.setFault(env, { service: "wsfe", mode: "none" });
    }
  });
});
