import { billing } from "@pasarela/contracts";
import { capturingLogger } from "@pasarela/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTimeout as sleep } from "node:timers/promises";
import { openDatabase } from "@pasarela/db";
import { routeModules, schema } from "../src/index.js";
import type { EdgeDatabase } from "../src/panel/db/database.js";
import { csrfToken, hashSessionId, makeSessionStore } from "../src/panel/sessions.js";
import { newKey as newKeyOf, startBillingEdge, type BillingEdge } from "./billing-edge.js";

const csrfOf = (page: string) => /name="_csrf" value="([^"]+)"/.exec(page)?.[1];

/**
 * The dashboard in process over real billing: sessions in the edge's own schema, form tokens,
 * the API keys pages and the separation of the two credentials. Sessions are opened through
 * the store here (login itself is covered end to end in the browser tests).
 */
describe("panel: sessions, form tokens, API keys pages", () => {
  let stack: BillingEdge;
  const logs = capturingLogger("edge");

  beforeAll(async () => {
    stack = await startBillingEdge({
      pepper: "panel-test-pepper-panel-test-pepper-0123",
      logger: logs.logger,
      app: { routes: routeModules.filter((m) => m.name === "cuenta" || m.name === "uso") },
      panel: {},
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const app = () => stack.edge.app;

  /** an account (made as the admin CLI does) and a live session of one of its users */
  async function loggedIn() {
    const key = await newKeyOf(stack.client, "read_write");
    const id = await stack.sessions!.create({
      userId: crypto.randomUUID(),
      accountId: key.accountId,
      name: "Ana <b>Pérez</b>",
      email: "ana@ejemplo.com.ar",
    });
    return { ...key, cookie: `pasarela_sesion=${id}`, sessionId: id };
  }

  const get = (url: string, headers: Record<string, string> = {}) =>
    app().inject({ method: "GET", url, headers });
  const post = (url: string, cookie: string, form: Record<string, string>) =>
    app().inject({
      method: "POST",
      url,
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(form).toString(),
    });

  it("sends a visitor without a session, or with only an API key, to the login page", async () => {
    const { secret } = await loggedIn();
    const without: Record<string, string> = {};
    for (const headers of [without, { authorization: `Bearer ${secret}` }]) {
      const answer = await get("/panel/claves", headers);
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toBe("/panel/ingresar");
    }
  });

  it("never lets a session cookie authenticate the API", async () => {
    const { cookie } = await loggedIn();
    const answer = await get("/api/cuenta", { cookie });
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual({ error: "No autorizado" });
  });

  it("serves pages with a strict policy, no caching and escaped user data", async () => {
    const { cookie } = await loggedIn();
    const answer = await get("/panel/claves", { cookie });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(answer.headers["x-frame-options"]).toBe("DENY");
    expect(answer.headers["referrer-policy"]).toBe("no-referrer");
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.body).toContain("Ana &lt;b&gt;Pérez&lt;/b&gt;");
    expect(answer.body).not.toContain("<b>Pérez</b>");
    expect(answer.body).not.toMatch(/<script>|style="/);
  });

  it("refuses a form without its token, with a wrong one or with another session's (403)", async () => {
    const a = await loggedIn();
    const b = await loggedIn();
    const page = await get("/panel/claves", { cookie: b.cookie });
    const bToken = csrfOf(page.body)!;
    const forms: Record<string, string>[] = [{}, { _csrf: "x".repeat(43) }, { _csrf: bToken }];
    for (const form of forms) {
      const answer = await post("/panel/claves", a.cookie, { scope: "read_only", ...form });
      expect(answer.statusCode).toBe(403);
      expect(answer.body).toContain("El formulario venció o no es válido");
    }
    const { keys } = await stack.client
      .request(billing.keyList, { accountId: a.accountId })
      .then((r) => (r.ok ? r.value : { keys: [] }));
    expect(keys).toHaveLength(1);
  });

  it("shows a new key's secret once: the redirect carries it, a reload never shows it again", async () => {
    const a = await loggedIn();
    const page = await get("/panel/claves", { cookie: a.cookie });
    const created = await post("/panel/claves", a.cookie, {
      _csrf: csrfOf(page.body)!,
      scope: "read_only",
    });
    expect(created.statusCode).toBe(303);
    const location = created.headers.location as string;
    expect(location).toMatch(/^\/panel\/claves\?nueva=[0-9a-f-]{36}$/);
    // another session cannot read this session's flash
    const other = await loggedIn();
    expect((await get(location, { cookie: other.cookie })).body).not.toContain('id="secreto"');
    const first = await get(location, { cookie: a.cookie });
    const secret = /id="secreto"[^>]*value="([^"]+)"/.exec(first.body)?.[1];
    expect(secret).toBeDefined();
    expect(first.body).toContain("es la única vez que se muestra");
    const again = await get(location, { cookie: a.cookie });
    expect(again.body).not.toContain(secret!);
    expect(again.body).toContain("ya se mostró una vez");
    // the key works, read_only
    const cuenta = await get("/api/cuenta", { authorization: `Bearer ${secret!}` });
    expect(cuenta.json()).toMatchObject({ accountId: a.accountId, scope: "read_only" });
    // the secret is never logged
    expect(logs.lines.join("")).not.toContain(secret!);
    expect(logs.lines.join("")).not.toContain(a.sessionId);
  });

  it("revokes a key after a confirmation page; another account's key id is a 404 page", async () => {
    const a = await loggedIn();
    const b = await loggedIn();
    const confirm = await get(`/panel/claves/${a.keyId}/revocar`, { cookie: a.cookie });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain("Sí, revocar");
    const token = csrfOf(confirm.body)!;
    // B cannot see nor revoke A's key
    expect((await get(`/panel/claves/${a.keyId}/revocar`, { cookie: b.cookie })).statusCode).toBe(
      404,
    );
    const bToken = csrfOf((await get("/panel/claves", { cookie: b.cookie })).body)!;
    const refused = await post(`/panel/claves/${a.keyId}/revocar`, b.cookie, { _csrf: bToken });
    expect(refused.statusCode).toBe(404);
    expect(refused.body).toContain("La página no existe o no es de tu cuenta");
    expect((await get("/api/cuenta", { authorization: `Bearer ${a.secret}` })).statusCode).toBe(
      200,
    );

    const revoked = await post(`/panel/claves/${a.keyId}/revocar`, a.cookie, { _csrf: token });
    expect(revoked.statusCode).toBe(303);
    expect((await get("/api/cuenta", { authorization: `Bearer ${a.secret}` })).statusCode).toBe(
      401,
    );
    const list = await get("/panel/claves", { cookie: a.cookie });
    expect(list.body).toContain("Revocada");
  });

  it("ends sessions when revoked, per user, when idle and at their absolute expiry", async () => {
    const a = await loggedIn();
    await stack.sessions!.revoke(hashSessionId(a.sessionId));
    expect((await get("/panel/claves", { cookie: a.cookie })).statusCode).toBe(303);

    const b = await loggedIn();
    const session = await stack.sessions!.find(b.sessionId);
    await stack.sessions!.revokeUser(session!.userId);
    expect(await stack.sessions!.find(b.sessionId)).toBeUndefined();

    // a store whose sessions go idle after 400 ms
    const database = openDatabase<EdgeDatabase>({ url: stack.databaseUrl, schema, poolSize: 1 });
    try {
      const short = makeSessionStore(database.db, { idleMs: 400, absoluteMs: 900 });
      const user = {
        userId: crypto.randomUUID(),
        accountId: b.accountId,
        name: "B",
        email: "b@x.ar",
      };
      const idle = await short.create(user);
      await sleep(600);
      expect(await short.find(idle)).toBeUndefined();
      const long = makeSessionStore(database.db, { idleMs: 60_000, absoluteMs: 700 });
      const ending = await long.create(user);
      expect(await long.find(ending)).toBeDefined();
      await sleep(800);
      expect(await long.find(ending)).toBeUndefined();
    } finally {
      await database.close();
    }
    expect(csrfToken({ csrfSecret: Buffer.alloc(32) })).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("renders Uso with the quota bars, the 30-day chart and the history", async () => {
    const a = await loggedIn();
    const call = await get("/api/cuenta", { authorization: `Bearer ${a.secret}` });
    expect(call.statusCode).toBe(200);
    const requestId = String(call.headers["x-request-id"]);
    // the call reaches the history through the usage events: the page shows it once recorded
    let page = await get("/panel/uso", { cookie: a.cookie });
    for (let i = 0; i < 100 && !page.body.includes(requestId); i++) {
      await sleep(100);
      page = await get("/panel/uso", { cookie: a.cookie });
    }
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="cuota-facturas"');
    const [chart, history] = page.body.split("Historial de llamadas");
    expect(chart).toContain("<svg");
    expect(history).toContain(requestId);
    expect(history).toContain("/api/cuenta");
  });

  it("links the favicon it serves, and gives each table a scrolling box of its own", async () => {
    const { cookie } = await loggedIn();
    const page = await get("/panel/claves", { cookie });
    const icon = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(page.body)?.[1];
    expect(icon).toMatch(/^\/panel\/assets\/favicon-[0-9a-f]{10}\.svg$/);
    const served = await get(icon!);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/svg+xml");
    expect(served.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // the account's key is listed in a table, inside a region the keyboard can scroll
    const tables = page.body.match(/<table\b/g) ?? [];
    expect(tables.length).toBeGreaterThan(0);
    const boxed = page.body.match(
      /<div class="table-scroll" role="region" aria-label="API keys" tabindex="0"\s*><table>/g,
    );
    expect(boxed).toHaveLength(tables.length);
    expect(page.body.match(/<\/table><\/div>/g)).toHaveLength(tables.length);
  });
});
