import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, newAccount, type Account, type ErrorBody } from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually, sleep } from "../support/wait.js";

const READ_ONLY = "Esta API key es de solo lectura y no puede modificar datos de la cuenta.";
const NOT_FOUND = { error: "Webhook no encontrado", code: "WEBHOOK_NOT_FOUND" };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Entrega {
  id: string;
  eventoId: string;
  tipo: string;
  status: string;
  intentos: number;
  ultimoStatusCode: number | null;
}

/**
 * `POST /api/webhooks/{id}/prueba` over real processes, each on its own NATS user (the edge
 * granted the new subject like the others): the receiver in this test gets the test event,
 * verifies it with the standardwebhooks package and finds it in the endpoint's log.
 */
describe("webhook test events end to end", { timeout: 90_000 }, () => {
  let stack: E2EStack;
  let account: Account;
  let stranger: Account;
  let server: Server;
  let base: string;
  const received = new Map<string, Received[]>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const path = req.url ?? "/";
        const list = received.get(path) ?? [];
        list.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
        received.set(path, list);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // the address rule lifted (the stack's default): the receiver is on loopback
    stack = await startE2EStack({ env: { LOG_LEVEL: "warn" }, withNatsGrants: true });
    [account, stranger] = await Promise.all([
      newAccount(stack, "Con webhooks"),
      newAccount(stack, "Otra cuenta"),
    ]);
  });

  afterAll(async () => {
    await stack?.teardown();
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
  const arrived = (path: string, count: number) =>
    eventually(`${count} deliveries at ${path}`, () => {
      const list = received.get(path) ?? [];
      return list.length >= count ? list : undefined;
    });

  it("delivers a signed webhook.prueba to that endpoint only, logs it and refuses what it should", async () => {
    const target = await register("/prueba", ["cuota.alerta"]);
    const other = await register("/otro", ["*"]);
    const path = `/api/webhooks/${target.id}/prueba`;

    // a read_only key and another account are refused before anything is queued
    const readOnly = await http(stack, "POST", path, account.ro);
    expect(readOnly.status).toBe(403);
    expect(readOnly.json<ErrorBody>()).toMatchObject({ code: "READ_ONLY_KEY", error: READ_ONLY });
    const foreign = await http(stack, "POST", path, stranger.rw);
    expect(foreign.status).toBe(404);
    expect(foreign.json()).toEqual(NOT_FOUND);
    const unknown = await http(stack, "POST", "/api/webhooks/no-existe/prueba", account.rw);
    expect(unknown.status).toBe(404);

    const sent = await http(stack, "POST", path, account.rw);
    expect(sent.status, sent.text).toBe(202);
    const { entregaId, eventoId } = sent.json<{ entregaId: string; eventoId: string }>();

    const [delivery] = await arrived("/prueba", 1);
    const event = new Webhook(target.secreto).verify(
      delivery!.body,
      delivery!.headers as Record<string, string>,
    );
    expect(event).toEqual({
      id: eventoId,
      tipo: "webhook.prueba",
      createdAt: expect.any(String) as string,
      data: { webhookId: target.id, mensaje: expect.stringContaining("prueba") as string },
    });
    expect(delivery!.headers["webhook-id"]).toBe(eventoId);

    const logged = await eventually("the test delivery logged as delivered", async () => {
      const log = await http(stack, "GET", `/api/webhooks/${target.id}/entregas`, account.ro);
      const [item] = log.json<{ items: Entrega[] }>().items;
      return item?.status === "delivered" ? item : undefined;
    });
    expect(logged).toMatchObject({
      id: entregaId,
      eventoId,
      tipo: "webhook.prueba",
      intentos: 1,
      ultimoStatusCode: 204,
    });

    // a second test is a new event; re-sending the first repeats its id
    const second = await http(stack, "POST", path, account.rw);
    expect(second.status).toBe(202);
    expect(second.json<{ eventoId: string }>().eventoId).not.toBe(eventoId);
    const resent = await http(
      stack,
      "POST",
      `/api/webhooks/${target.id}/entregas/${entregaId}/reenviar`,
      account.rw,
    );
    expect(resent.status, resent.text).toBe(200);
    const deliveries = await arrived("/prueba", 3);
    expect(new Set(deliveries.map((d) => d.headers["webhook-id"])).size).toBe(2);

    // a paused endpoint is refused with the catalogue's 409
    const paused = await http(stack, "PATCH", `/api/webhooks/${target.id}`, account.rw, {
      activo: false,
    });
    expect(paused.status).toBe(200);
    const refused = await http(stack, "POST", path, account.rw);
    expect(refused.status).toBe(409);
    expect(refused.json()).toEqual({
      code: "WEBHOOK_INACTIVE",
      error: "El webhook está pausado (activo: false): activalo para enviarle un evento de prueba",
    });

    // the account's other endpoint, subscribed to everything, never got a test event
    await sleep(500);
    expect(received.get("/otro")).toBeUndefined();
    const otherLog = await http(stack, "GET", `/api/webhooks/${other.id}/entregas`, account.ro);
    expect(otherLog.json<{ items: Entrega[] }>().items).toEqual([]);
  });

  it("documents the route in the OpenAPI document", async () => {
    const document = (await (await fetch(`${stack.edgeUrl}/docs/json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const route = document.paths["/api/webhooks/{id}/prueba"]?.post;
    expect(Object.keys(route?.responses ?? {}).sort()).toEqual(["202", "403", "404", "409"].sort());
  });
});
