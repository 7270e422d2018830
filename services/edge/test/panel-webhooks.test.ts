import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { catalogue } from "@pasarela/errors";
import { capturingLogger } from "@pasarela/testing";
import { loadConfig, startWebhooks } from "@pasarela/webhooks";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newKey, startBillingEdge, type BillingEdge } from "./billing-edge.js";

const csrfOf = (page: string) => /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
const secretOf = (page: string) => /id="secreto"[^>]*value="([^"]+)"/.exec(page)?.[1];

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * The Webhooks pages in process over the real webhooks and billing services: the forms, the
 * secret's one showing, the test event reaching a receiver, the catalogue's messages, and
 * another account's ids. The browser drives the same pages in tests/e2e/dashboard-webhooks.
 */
describe("panel: Webhooks pages", () => {
  let stack: BillingEdge;
  let stopWebhooks: () => Promise<void>;
  let server: Server;
  let base: string;
  const received: Received[] = [];
  const logs = capturingLogger("edge");

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
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    stack = await startBillingEdge({
      pepper: "panel-webhooks-pepper-panel-webhooks-01",
      logger: logs.logger,
      app: { routes: [] },
      panel: {},
    });
    const service = await startWebhooks(
      loadConfig({
        NATS_URL: stack.natsUrl,
        NATS_PREFIX: stack.prefix,
        DATABASE_URL: stack.databaseUrl,
        KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        WEBHOOKS_ALLOW_PRIVATE: "true",
      }),
      logs.logger,
    );
    stopWebhooks = service.stop;
  });

  afterAll(async () => {
    await stopWebhooks?.();
    await stack?.stop();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  const app = () => stack.edge.app;

  async function loggedIn() {
    const key = await newKey(stack.client, "read_write");
    const id = await stack.sessions!.create({
      userId: crypto.randomUUID(),
      accountId: key.accountId,
      name: "Marta",
      email: "marta@ejemplo.com.ar",
    });
    return { cookie: `pasarela_sesion=${id}`, sessionId: id };
  }
  type Who = Awaited<ReturnType<typeof loggedIn>>;

  const get = (who: Who, url: string) =>
    app().inject({ method: "GET", url, headers: { cookie: who.cookie } });
  /** Posts `form` with the token of `page`; follows a redirect to what the form answered. */
  async function post(who: Who, page: string, action: string, form: [string, string][]) {
    const token = csrfOf((await get(who, page)).body)!;
    const answer = await app().inject({
      method: "POST",
      url: action,
      headers: { cookie: who.cookie, "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams([["_csrf", token], ...form]).toString(),
    });
    const location = answer.headers.location;
    if (answer.statusCode !== 303 || !location?.includes("resultado=")) return answer;
    return get(who, location);
  }
  const register = async (who: Who, path: string, eventos: string[]) => {
    const answer = await post(who, "/panel/webhooks", "/panel/webhooks", [
      ["url", `${base}${path}`],
      ...eventos.map((e): [string, string] => ["eventos", e]),
      ["descripcion", "Sistema <interno>"],
    ]);
    expect(answer.statusCode).toBe(303);
    return answer.headers.location as string;
  };

  it("registers from the form with the events chosen and shows the secret once, never logged", async () => {
    const a = await loggedIn();
    const location = await register(a, "/uno", ["comprobante.autorizado", "email.fallido"]);
    expect(location).toMatch(/^\/panel\/webhooks\/[0-9a-f-]{36}\?secreto=[0-9a-f-]{36}$/);
    // another session cannot read this session's flash
    expect(secretOf((await get(await loggedIn(), location)).body)).toBeUndefined();
    const first = await get(a, location);
    const secreto = secretOf(first.body)!;
    expect(secreto).toMatch(/^whsec_/);
    expect(first.body).toContain("no se volverá a mostrar");
    const again = await get(a, location);
    expect(again.body).not.toContain(secreto);
    expect(again.body).toContain("ya se mostró una vez");

    const list = await get(a, "/panel/webhooks");
    expect(list.body).toContain("<code>comprobante.autorizado</code>, <code>email.fallido</code>");
    expect(list.body).toContain("Sistema &lt;interno&gt;");
    expect(list.body).not.toContain("<interno>");
    expect(logs.lines.join("")).not.toContain(secreto.slice(6));
  });

  it("shows the catalogue's refusal beside its field, keeping what was typed", async () => {
    const a = await loggedIn();
    const refused = await post(a, "/panel/webhooks", "/panel/webhooks", [
      ["url", "ftp://ejemplo.com.ar/x"],
      ["eventos", "cobro.pagado"],
    ]);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/<p class="field-error" id="url-error">[^<]*https:\/\//);
    expect(refused.body).toContain('value="ftp://ejemplo.com.ar/x"');
    expect(refused.body).toMatch(/value="cobro\.pagado"\s+checked/);
    // an event the catalogue does not have is the group's refusal
    const unknown = await post(a, "/panel/webhooks", "/panel/webhooks", [
      ["url", `${base}/x`],
      ["eventos", "comprobante.inventado"],
    ]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toMatch(/<p class="field-error" id="eventos-error">/);
    expect((await get(a, "/panel/webhooks")).body).toContain("Todavía no registraste ninguno");
  });

  it("sends a signed test event, refuses it paused with the catalogue's message, and re-sends", async () => {
    const a = await loggedIn();
    const location = await register(a, "/prueba", ["cuota.alerta"]);
    const detail = location.split("?")[0]!;
    const secreto = secretOf((await get(a, location)).body)!;

    const sent = await post(a, detail, `${detail}/prueba`, []);
    expect(sent.statusCode).toBe(200);
    const eventoId = /Enviamos un evento de prueba \(<code>(evt_[^<]+)<\/code>\)/.exec(
      sent.body,
    )?.[1];
    expect(eventoId).toBeDefined();
    // the log in the page it answered already holds the delivery
    expect(sent.body).toContain(`<code>${eventoId!}</code>`);
    await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const delivery = received.find((r) => r.headers["webhook-id"] === eventoId)!;
    expect(
      new Webhook(secreto).verify(delivery.body, delivery.headers as Record<string, string>),
    ).toMatchObject({ id: eventoId, tipo: "webhook.prueba" });

    const entregaId = new RegExp(`${detail}/entregas/([0-9a-f-]{36})/reenviar`).exec(
      sent.body,
    )?.[1];
    const resent = await post(a, detail, `${detail}/entregas/${entregaId!}/reenviar`, []);
    expect(resent.body).toContain("sale de nuevo ahora");
    await expect
      .poll(() => received.filter((r) => r.headers["webhook-id"] === eventoId).length, {
        timeout: 10_000,
      })
      .toBe(2);

    const paused = await post(a, detail, detail, [
      ["url", `${base}/prueba`],
      ["eventos", "cuota.alerta"],
    ]);
    expect(paused.body).toContain("Cambios guardados.");
    expect(paused.body).toContain('<span class="badge muted">Pausado</span>');
    const refused = await post(a, detail, `${detail}/prueba`, []);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain(
      `<div class="notice error" role="alert">${catalogue.WEBHOOK_INACTIVE.message}</div>`,
    );
  });

  it("answers another account's webhook and delivery ids with the 404 page, and a form without its token with 403", async () => {
    const a = await loggedIn();
    const b = await loggedIn();
    const detail = (await register(a, "/ajeno", ["*"])).split("?")[0]!;
    const sent = await post(a, detail, `${detail}/prueba`, []);
    const entregaId = /\/entregas\/([0-9a-f-]{36})\/reenviar/.exec(sent.body)?.[1];
    for (const path of [detail, `${detail}/rotar`, `${detail}/eliminar`, "/panel/webhooks/x"]) {
      expect((await get(b, path)).statusCode, path).toBe(404);
    }
    for (const action of ["prueba", "rotar", "eliminar", `entregas/${entregaId!}/reenviar`]) {
      const answer = await post(b, "/panel/webhooks", `${detail}/${action}`, []);
      expect(answer.statusCode, action).toBe(404);
    }
    // A's own delivery id under another of A's webhooks is unknown too
    const otro = (await register(a, "/otro", ["*"])).split("?")[0]!;
    const crossed = await post(a, otro, `${otro}/entregas/${entregaId!}/reenviar`, []);
    expect(crossed.statusCode).toBe(404);
    const forged = await app().inject({
      method: "POST",
      url: `${detail}/eliminar`,
      headers: { cookie: a.cookie, "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });
    expect(forged.statusCode).toBe(403);
    expect((await get(a, detail)).statusCode).toBe(200);

    const deleted = await post(a, `${detail}/eliminar`, `${detail}/eliminar`, []);
    expect(deleted.headers.location).toBe("/panel/webhooks?eliminado=1");
    expect((await get(a, detail)).statusCode).toBe(404);
  });
});
