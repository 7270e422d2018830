import { connect } from "node:net";
import { connectBus, type Bus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { createLogger, startTracing } from "@pasarela/telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  register,
  scratch,
  simStats,
  type Account,
  type ErrorBody,
  type Registered,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

const env = "homologacion" as const;
const REQUEST_TIMEOUT_MS = 1_500;

/**
 * Writes `raw` on a fresh connection to the edge, leaves it open as a stalling client would,
 * and reads the first answer: its status and JSON body (undefined if none by the deadline).
 */
function rawExchange(
  url: string,
  raw: string,
  deadlineMs = 15_000,
): Promise<{ status: number; body: Record<string, unknown> } | undefined> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(raw));
    let received = "";
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return resolve(undefined);
      const body = received.slice(end + 4);
      resolve({
        status: Number(received.slice(0, end).split(" ")[1]),
        body: body ? (JSON.parse(body) as Record<string, unknown>) : {},
      });
    };
    const timer = setTimeout(finish, deadlineMs);
    socket.on("data", (data: Buffer) => {
      received += data.toString("utf8");
      const end = received.indexOf("\r\n\r\n");
      const length = /^content-length: *(\d+)/im.exec(received.slice(0, end))?.[1];
      if (
        end >= 0 &&
        length !== undefined &&
        Buffer.byteLength(received.slice(end + 4)) >= Number(length)
      )
        finish();
    });
    socket.on("close", finish);
    socket.on("error", finish);
  });
}

describe("the edge as a hostile caller sees it, over real processes", () => {
  let stack: E2EStack;
  /** the operator's own NATS client (what `npm run admin` does), for many keys quickly */
  let operator: Bus;
  let dir: Scratch;
  let account: Account;
  /** delegated wsfe and wsfex, point of sale 5 enabled for wsfex */
  let main: Registered;

  beforeAll(async () => {
    stack = await startE2EStack({
      env: { LOG_LEVEL: "info", EDGE_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
    });
    dir = scratch();
    account = await newAccount(stack, "Hostil");
    main = await register(stack, dir, {
      accountId: account.accountId,
      environment: env,
      ptoVta: 3,
      delegate: ["wsfe", "wsfex"],
      pos: [{ ptoVta: 5, service: "wsfex" }],
    });
    operator = await connectBus({
      url: stack.env.NATS_URL!,
      prefix: stack.env.NATS_PREFIX,
      name: "e2e-operator",
      logger: createLogger({ service: "e2e-operator", level: "silent" }),
      tracer: startTracing({ service: "e2e-operator" }).tracer,
    });
  });

  afterAll(async () => {
    await operator?.close();
    await stack?.teardown();
    dir?.remove();
  });

  const expectRefused = (answer: { status: number; text: string }, field: string, hex: string) => {
    expect(answer.status, answer.text).toBe(400);
    const body = JSON.parse(answer.text) as ErrorBody;
    expect(body.code).toBe("INVALID_FIELD");
    expect(body.details?.field).toBe(field);
    expect(body.error).toContain(`El campo ${field} contiene un carácter no permitido (${hex})`);
  };

  it("refuses NUL, control characters, lone surrogates and noncharacters in catalog text with 400 naming the field, storing nothing", async () => {
    const send = (method: "GET" | "POST", path: string, body?: unknown) =>
      http(stack, method, path, account.rw, body);
    const cliente = { docTipo: 96, docNro: "30111222" };
    // JSON.stringify writes control characters and lone surrogates as \uXXXX escapes, as a
    // hostile caller would
    for (const [razonSocial, hex] of [
      ["Ferretería\u0000 SA", "U+0000"], // PostgreSQL refuses NUL: this was a 500
      ["Ferretería \ud800", "U+D800"], // stored silently as U+FFFD before
      ["Ferretería\u0007", "U+0007"],
    ] as const) {
      expectRefused(
        await send("POST", "/api/clientes", { ...cliente, razonSocial }),
        "razonSocial",
        hex,
      );
    }
    expectRefused(
      await send("POST", "/api/clientes", {
        ...cliente,
        razonSocial: "Bien",
        domicilio: "a\u000bb",
      }),
      "domicilio",
      "U+000B",
    );
    expectRefused(
      await send("POST", "/api/productos", { descripcion: "Yerba\uffff", precioUnitario: "1" }),
      "descripcion",
      "U+FFFF",
    );
    expectRefused(await send("GET", "/api/clientes?q=%00"), "querystring.q", "U+0000");
    const listed = await send("GET", "/api/clientes");
    expect(listed.status).toBe(200);
    expect(listed.json<{ items: unknown[] }>().items).toEqual([]);

    // what is allowed arrives exactly as sent: accents, symbols, emoji, tab
    const razonSocial = "Muñoz e Hijos — ñandú 😀\tsucursal";
    const created = await send("POST", "/api/clientes", { ...cliente, razonSocial });
    expect(created.status, created.text).toBe(201);
    expect(created.json<{ razonSocial: string }>().razonSocial).toBe(razonSocial);
  });

  it("refuses control characters in a shipping permit and a currency before the authority is called", async () => {
    const authority = async () => (await simStats(stack, env)).total;
    const before = await authority();
    const as = (extra: Record<string, unknown>) => ({
      environment: env,
      representada: main.cuit,
      ...extra,
    });
    const post = (path: string, body: unknown) => http(stack, "POST", path, account.rw, body);
    for (const [idPermiso, hex] of [
      ["24001EC01000001/A\u0001", "U+0001"],
      ["24001EC01000001\u0000", "U+0000"],
      ["\udc0024001EC01000001", "U+DC00"],
    ] as const) {
      expectRefused(
        await post("/api/wsfex/permiso", as({ idPermiso, dstMerc: 203 })),
        "idPermiso",
        hex,
      );
    }
    expectRefused(
      await post("/api/wsfe/parametros/cotizacion", as({ moneda: "DO\u001b" })),
      "moneda",
      "U+001B",
    );
    expect(await authority()).toBe(before);
    // the same permit without the hostile character reaches the authority and answers
    const valid = await post(
      "/api/wsfex/permiso",
      as({ idPermiso: "24001EC01000001/A", dstMerc: 203 }),
    );
    expect(valid.status, valid.text).toBe(200);
  });

  it("answers 408 in the catalogue to a request whose body stalls halfway (EDGE_REQUEST_TIMEOUT_MS)", async () => {
    const body = JSON.stringify({ docTipo: 96, docNro: "30999888", razonSocial: "Lento SA" });
    const started = Date.now();
    const answer = await rawExchange(
      stack.edgeUrl,
      `POST /api/clientes HTTP/1.1\r\nHost: edge\r\nAuthorization: ${account.rw}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n` +
        body.slice(0, body.length / 2),
    );
    expect(answer).toMatchObject({ status: 408, body: { code: "REQUEST_TIMEOUT" } });
    // not before the configured limit: the edge process read the variable
    expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
  });

  it("answers malformed HTTP from the catalogue, never with Node's or fastify's own body", async () => {
    for (const raw of [
      `GET /api/cuenta HTTP/1.1\r\nAuthorization: ${account.rw}\r\n\r\n`,
      "POST /api/clientes HTTP/1.1\r\nHost: edge\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "BASURA\r\n\r\n",
      `GET /api/clientes/%ZZ HTTP/1.1\r\nHost: edge\r\nAuthorization: ${account.rw}\r\n\r\n`,
    ]) {
      const answer = await rawExchange(stack.edgeUrl, raw);
      expect(answer, raw).toBeDefined();
      const { status, body } = answer!;
      expect(status, raw).toBe(400);
      expect(Object.keys(body).sort(), raw).toEqual(
        ["code", "details", "error"].filter((k) => k in body),
      );
      expect(["MALFORMED_REQUEST", "INVALID_URL"], raw).toContain(body.code);
      expect(typeof body.error, raw).toBe("string");
    }
  });

  const cuenta = (authorization: string) =>
    fetch(`${stack.edgeUrl}/api/cuenta`, { headers: { authorization } });

  it("never authenticates a key once its revocation has been answered, however verifications race it", async () => {
    const account = await operator.request(billing.accountCreate, { name: "Revocaciones" });
    if (!account.ok) throw new Error(account.error.message);
    for (let trial = 0; trial < 40; trial++) {
      const key = await operator.request(billing.keyCreate, {
        accountId: account.value.accountId,
        scope: "read_write",
      });
      if (!key.ok) throw new Error(key.error.message);
      const authorization = `Bearer ${key.value.secret}`;
      // uncached verifications at billing, in flight while the key is revoked: an answer
      // computed before the revocation may reach the edge after its event
      const racing = Array.from({ length: 4 }, () => cuenta(authorization));
      const revoked = await operator.request(billing.keyRevoke, { keyId: key.value.keyId });
      expect(revoked.ok).toBe(true);
      await Promise.all(racing);
      for (let after = 0; after < 3; after++) {
        const response = await cuenta(authorization);
        expect(response.status, `trial ${trial}`).toBe(401);
        expect(await response.text()).toBe('{"error":"No autorizado"}');
      }
    }
  });
});
