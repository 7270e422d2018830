import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually, sleep } from "../support/wait.js";

const env = "homologacion" as const;
const PTO_VTA = 7;
const NOT_FOUND = { error: "Webhook no encontrado", code: "WEBHOOK_NOT_FOUND" };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

interface Entrega {
  id: string;
  eventoId: string;
  tipo: string;
  status: "pending" | "delivered" | "failed";
  intentos: number;
  ultimoStatusCode: number | null;
  ultimoError: string | null;
  latenciaMs: number | null;
  proximoIntentoAt: string | null;
}

/**
 * Deliveries over real processes: a voucher issued through the edge reaches a receiver in
 * this test, signed so that the standardwebhooks package verifies it; a
 * failing receiver gets the same delivery again (short retry delays) until it answers 2xx.
 */
describe("webhook deliveries end to end", { timeout: 90_000 }, () => {
  let stack: E2EStack;
  let dir: Scratch;
  let account: Account;
  let stranger: Account;
  let rep: Registered;
  let server: Server;
  let base: string;
  // by path, what the receiver got and how it answered
  const received = new Map<string, Received[]>();
  // by path, the statuses to answer in order; then 200
  const script = new Map<string, number[]>([["/flaky", [500, 500]]]);

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const path = req.url ?? "/";
        const status = script.get(path)?.shift() ?? 200;
        const list = received.get(path) ?? [];
        list.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), status });
        received.set(path, list);
        res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "no");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // the address rule lifted (the stack's default): the receiver is on loopback
    stack = await startE2EStack({ env: { LOG_LEVEL: "warn", WEBHOOKS_RETRY_SCALE: "0.001" } });
    dir = scratch();
    [account, stranger] = await Promise.all([
      newAccount(stack, "Con webhooks"),
      newAccount(stack, "Otra cuenta"),
    ]);
    rep = await registerWsfeIssuer(stack, dir, account.accountId, env, PTO_VTA);
  });

  afterAll(async () => {
    await stack?.teardown();
    dir?.remove();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  const register = async (path: string, eventos: string[]) => {
    const created = await http(stack, "POST", "/api/webhooks", account.rw, {
      url: `${base}${path}`,
      eventos,
    });
    expect(created.status, created.text).toBe(201);
    return created.json<{ id: string; secreto: string }>();
  };
  const entregas = async (webhookId: string, who: Account = account) => {
    const answer = await http(stack, "GET", `/api/webhooks/${webhookId}/entregas`, who.ro);
    expect(answer.status, answer.text).toBe(200);
    return answer.json<{ items: Entrega[]; nextCursor: string | null }>().items;
  };
  const arrived = (path: string, count: number) =>
    eventually(`${count} deliveries at ${path}`, () => {
      const list = received.get(path) ?? [];
      return list.length >= count ? list : undefined;
    });
  const verify = (secreto: string, delivery: Received) =>
    new Webhook(secreto).verify(delivery.body, delivery.headers as Record<string, string>);

  it("delivers an issued voucher, signed, retries a failing receiver, logs and re-sends", async () => {
    const ok = await register("/ok", ["comprobante.autorizado"]);
    const flaky = await register("/flaky", ["*"]);
    const other = await register("/rechazos", ["comprobante.rechazado"]);

    const issued = await fetch(`${stack.edgeUrl}/api/wsfe/facturas`, {
      method: "POST",
      headers: { authorization: account.rw, "content-type": "application/json" },
      body: JSON.stringify({
        environment: env,
        representada: rep.cuit,
        ptoVta: PTO_VTA,
        cbteTipo: 11,
        concepto: 1,
        docTipo: 99,
        docNro: "0",
        condicionIvaReceptorId: 5,
        items: [{ descripcion: "Clase", cantidad: 1, precioUnitario: "1500", alicuotaIva: 0 }],
      }),
    });
    const issuedText = await issued.text();
    expect(issued.status, issuedText).toBe(200);
    const factura = JSON.parse(issuedText) as Record<string, unknown>;

    // one delivery, verified by the standardwebhooks package, carrying the 200 body
    const [delivery] = await arrived("/ok", 1);
    expect(delivery!.headers["content-type"]).toBe("application/json");
    expect(delivery!.headers["user-agent"]).toMatch(/^Pasarela-Webhooks\//);
    const payload = verify(ok.secreto, delivery!) as Record<string, unknown>;
    expect(payload).toMatchObject({
      id: delivery!.headers["webhook-id"],
      tipo: "comprobante.autorizado",
      environment: env,
      data: factura,
    });
    expect(Date.parse(payload.createdAt as string)).not.toBeNaN();
    // another endpoint's secret does not verify it
    expect(() => verify(flaky.secreto, delivery!)).toThrow();

    // 500, 500, then 200: the same delivery each time, same id, until it is delivered
    const attempts = await arrived("/flaky", 3);
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(new Set(attempts.map((a) => a.headers["webhook-id"]))).toEqual(
      new Set([delivery!.headers["webhook-id"]]),
    );
    for (const attempt of attempts) expect(verify(flaky.secreto, attempt)).toEqual(payload);

    const flakyLog = await eventually("the flaky delivery recorded as delivered", async () => {
      const [item] = await entregas(flaky.id);
      return item?.status === "delivered" ? item : undefined;
    });
    expect(flakyLog).toMatchObject({
      eventoId: payload.id,
      tipo: "comprobante.autorizado",
      intentos: 3,
      ultimoStatusCode: 200,
      ultimoError: null,
      proximoIntentoAt: null,
    });
    expect(flakyLog.latenciaMs).toEqual(expect.any(Number));

    const [okLog] = await eventually("the delivery recorded", async () => {
      const items = await entregas(ok.id);
      return items[0]?.status === "delivered" ? items : undefined;
    });
    expect(okLog).toMatchObject({ intentos: 1, ultimoStatusCode: 200 });

    // an endpoint not subscribed to the event got nothing
    expect(await entregas(other.id)).toEqual([]);
    expect(received.get("/rechazos")).toBeUndefined();

    // re-sending: read-only keys refused, another account's ids unknown, then sent again
    const path = `/api/webhooks/${ok.id}/entregas/${okLog!.id}/reenviar`;
    expect((await http(stack, "POST", path, account.ro)).status).toBe(403);
    const foreign = await http(stack, "POST", path, stranger.rw);
    expect(foreign.status).toBe(404);
    expect(foreign.json()).toEqual(NOT_FOUND);
    expect((await http(stack, "GET", `/api/webhooks/${ok.id}/entregas`, stranger.ro)).status).toBe(
      404,
    );
    const requeued = await http(stack, "POST", path, account.rw);
    expect(requeued.status, requeued.text).toBe(200);
    expect(requeued.json<Entrega>()).toMatchObject({ id: okLog!.id, status: "pending" });
    const [, again] = await arrived("/ok", 2);
    expect(again!.headers["webhook-id"]).toBe(delivery!.headers["webhook-id"]);
    expect(verify(ok.secreto, again!)).toEqual(payload);
    await eventually("the re-sent delivery recorded", async () => {
      const [item] = await entregas(ok.id);
      return item?.status === "delivered" && item.intentos === 2 ? item : undefined;
    });

    // nothing more arrives: a delivered delivery is not sent again
    await sleep(1_500);
    expect(received.get("/ok")).toHaveLength(2);
    expect(received.get("/flaky")).toHaveLength(3);
  });
});
