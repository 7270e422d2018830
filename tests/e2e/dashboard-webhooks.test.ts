import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { catalogue } from "@pasarela/errors";
import type { Browser, Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfOf, launchChromium, newUser, PanelClient } from "../support/panel.js";
import { ARGENTINA, auditPages, LAPTOP, watchErrors } from "../support/panel-audit.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually } from "../support/wait.js";

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * The Webhooks page driven in headless Chromium against the whole running gateway, with a
 * receiver in this test: register an endpoint (its secret shown once), send it a test event
 * that the standardwebhooks package verifies with that secret, read and re-send the log,
 * pause it, rotate its secret, delete it; every page audited at a laptop's and a phone's width.
 */
describe("dashboard: Webhooks in a real browser", { timeout: 180_000 }, () => {
  let stack: E2EStack;
  let browser: Browser;
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
    [stack, browser] = await Promise.all([
      // every service logging at debug: no secret may show up in what they wrote
      startE2EStack({ env: { LOG_LEVEL: "debug", WEBHOOKS_RETRY_SCALE: "0.001" } }),
      launchChromium(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.teardown();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  const url = (path: string) => `${stack.edgeUrl}${path}`;
  const arrived = (path: string, count: number) =>
    eventually(`${count} deliveries at ${path}`, () => {
      const list = received.get(path) ?? [];
      return list.length >= count ? list : undefined;
    });
  const verify = (secreto: string, delivery: Received) =>
    new Webhook(secreto).verify(delivery.body, delivery.headers as Record<string, string>) as {
      id: string;
      tipo: string;
      data: Record<string, unknown>;
    };

  async function signUp(page: Page, user: ReturnType<typeof newUser>) {
    await page.goto(url("/panel/registrarse"));
    await page.fill("#accountName", user.accountName);
    await page.fill("#name", user.name);
    await page.fill("#email", user.email);
    await page.fill("#password", user.password);
    await page.fill("#password2", user.password);
    await Promise.all([page.waitForURL(/\/panel\/claves$/), page.click("button[type=submit]")]);
  }

  /** Submits the form whose button says `label` and waits for the page it sends to. */
  const submit = (page: Page, label: string, to: RegExp) =>
    Promise.all([page.waitForURL(to), page.click(`main button:has-text("${label}")`)]);
  const RESULT = /\?resultado=[0-9a-f-]{36}$/;
  /** The statuses of the refusal pages among what the browser reported; throws on anything else. */
  const refusals = (reported: string[]): number[] =>
    reported.flatMap((line) => {
      if (/^console: Failed to load resource: .+ status of (400|409)/.test(line)) return [];
      const status = /^(400|409) for /.exec(line)?.[1];
      if (!status) throw new Error(`unexpected: ${line}`);
      return [Number(status)];
    });

  it("registers an endpoint, shows its secret once, tests, re-sends, pauses, rotates and deletes it", async () => {
    const context = await browser.newContext({ viewport: LAPTOP, ...ARGENTINA });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: stack.edgeUrl,
    });
    const page = await context.newPage();
    const errors = watchErrors(page);
    try {
      await signUp(page, newUser("Libreria"));
      await Promise.all([
        page.waitForURL(/\/panel\/webhooks$/),
        page.click('header nav a:has-text("Webhooks")'),
      ]);
      expect(await page.locator('header nav a[aria-current="page"]').innerText()).toBe("Webhooks");
      expect(await page.locator("main").innerText()).toContain("Todavía no registraste ninguno");

      // a refused address: the catalogue's message under the field, which has the focus
      await page.fill("#url", "https://usuario:clave@ejemplo.com.ar/eventos");
      await page.check('input[name=eventos][value="cobro.pagado"]');
      await submit(page, "Registrar webhook", /\/panel\/webhooks\?resultado=/);
      expect(await page.locator("#url").getAttribute("aria-invalid")).toBe("true");
      expect(await page.locator("#url-error").innerText()).toContain(
        "no puede incluir usuario ni contraseña",
      );
      expect(await page.evaluate<string | undefined>("document.activeElement?.id")).toBe("url");
      // what was typed and chosen is kept
      expect(await page.isChecked('input[name=eventos][value="cobro.pagado"]')).toBe(true);
      // no event chosen: the message under the group of checkboxes
      await page.fill("#url", `${base}/recibe`);
      await page.uncheck('input[name=eventos][value="cobro.pagado"]');
      await submit(page, "Registrar webhook", /\/panel\/webhooks\?resultado=/);
      expect(await page.locator("#eventos-error").innerText()).toContain("eventos");
      expect(await page.locator("fieldset.checks").getAttribute("aria-describedby")).toBe(
        "eventos-error",
      );

      // the two refusals are pages of their status (400), as the browser reports them
      expect(refusals(errors.take())).toEqual([400, 400]);

      await page.check('input[name=eventos][value="comprobante.autorizado"]');
      await page.check('input[name=eventos][value="cobro.pagado"]');
      await page.fill("#descripcion", "ERP de la librería");
      await submit(page, "Registrar webhook", /\/panel\/webhooks\/[0-9a-f-]{36}\?secreto=/);
      const detail = new URL(page.url()).pathname;
      const webhookId = detail.split("/").at(-1)!;
      const secreto = await page.inputValue("#secreto");
      expect(secreto).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(await page.locator(".notice.warn").first().innerText()).toContain(
        "no se volverá a mostrar",
      );
      await page.click("button[data-copy]");
      await page.locator("button[data-copy]", { hasText: "Copiado" }).waitFor({ timeout: 5_000 });
      expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(secreto);

      await page.reload();
      expect(await page.locator("#secreto").count()).toBe(0);
      expect(await page.content()).not.toContain(secreto);
      expect(await page.locator(".notice.warn").innerText()).toContain("ya se mostró una vez");

      // the test event: to this endpoint, signed with the secret the page showed
      await submit(page, "Enviar evento de prueba", RESULT);
      const sentNotice = await page.locator(".notice.ok").innerText();
      const eventoId = /evt_[A-Za-z0-9_-]{32}/.exec(sentNotice)?.[0];
      expect(eventoId).toBeDefined();
      const [delivery] = await arrived("/recibe", 1);
      expect(verify(secreto, delivery!)).toMatchObject({
        id: eventoId,
        tipo: "webhook.prueba",
        data: { webhookId },
      });

      // the log: event, kind, attempts, status, latency, next attempt, state; then re-sent
      const row = page.locator("#entregas tbody tr").first();
      await expect
        .poll(
          async () => {
            await page.goto(url(detail));
            return row.innerText();
          },
          { timeout: 15_000, interval: 300 },
        )
        .toContain("Entregada");
      const cells = await row.locator("td").allInnerTexts();
      expect(cells[0]).toContain(eventoId);
      expect(cells[1]).toContain("Evento de prueba");
      expect(cells.slice(2, 6)).toEqual(["1", "204", expect.stringMatching(/^\d+ ms$/), "—"]);
      await submit(page, "Reenviar", RESULT);
      expect(await page.locator(".notice.ok").innerText()).toContain(eventoId);
      const [, again] = await arrived("/recibe", 2);
      expect(again!.headers["webhook-id"]).toBe(eventoId);

      // paused, at another address: the test is refused with the catalogue's message
      await page.fill("#url", `${base}/otra`);
      await page.uncheck("input[name=activo]");
      await submit(page, "Guardar cambios", RESULT);
      expect(await page.locator(".notice.ok").innerText()).toContain("Cambios guardados");
      expect(await page.locator("main .card").first().innerText()).toContain("Pausado");
      await submit(page, "Enviar evento de prueba", RESULT);
      expect((await page.locator(".notice.error").innerText()).trim()).toBe(
        catalogue.WEBHOOK_INACTIVE.message,
      );
      expect(refusals(errors.take())).toEqual([409]);

      // rotated: the new secret once, the old one still signing for 24 hours
      await Promise.all([page.waitForURL(/\/rotar$/), page.click("text=Rotar secreto")]);
      const rotar = new URL(page.url()).pathname;
      await submit(page, "Sí, rotar", /\?secreto=[0-9a-f-]{36}$/);
      const nuevo = await page.inputValue("#secreto");
      expect(nuevo).not.toBe(secreto);
      expect(await page.locator("main").innerText()).toMatch(
        /sigue firmando junto a este hasta \d\d\/\d\d\/\d{4}.+\(24\s+horas\)/,
      );
      await page.check("input[name=activo]");
      await submit(page, "Guardar cambios", RESULT);
      await submit(page, "Enviar evento de prueba", RESULT);
      const [rotated] = await arrived("/otra", 1);
      expect(verify(nuevo, rotated!).tipo).toBe("webhook.prueba");
      expect(verify(secreto, rotated!).tipo).toBe("webhook.prueba");

      await page.goto(url("/panel/webhooks"));
      const listed = await page.locator("#webhooks tbody tr").innerText();
      expect(listed).toContain(`${base}/otra`);
      expect(listed).toContain("comprobante.autorizado, cobro.pagado");
      expect(listed).toContain("Activo");
      expect(listed).toContain("ERP de la librería");

      const problems = errors.take().map((found) => `before the visits: ${found}`);
      problems.push(
        ...(await auditPages(
          page,
          url,
          {
            webhooks: "/panel/webhooks",
            webhook: detail,
            rotar,
            eliminar: `${detail}/eliminar`,
          },
          errors,
        )),
      );
      expect(problems).toEqual([]);

      await page.goto(url(detail));
      await Promise.all([page.waitForURL(/\/eliminar$/), page.click("text=Eliminar webhook")]);
      await submit(page, "Sí, eliminar", /\/panel\/webhooks\?eliminado=1$/);
      expect(await page.locator(".notice.ok").innerText()).toContain("Eliminaste el webhook");
      expect(await page.locator("#webhooks").count()).toBe(0);
      expect((await page.goto(url(detail)))!.status()).toBe(404);

      // the secrets travelled to this browser only: no service logged them
      const logged = stack.output();
      expect(logged).toContain("webhook test event queued");
      for (const shown of [secreto, nuevo]) expect(logged).not.toContain(shown.slice(6));
    } finally {
      await context.close();
    }
  });

  it("keeps another account out and refuses a form without its token", async () => {
    const owner = new PanelClient(stack.edgeUrl);
    const other = new PanelClient(stack.edgeUrl);
    await owner.signup(newUser("Papeleria"));
    await other.signup(newUser("Imprenta"));
    const created = await owner.submit("/panel/webhooks", "/panel/webhooks", {
      url: `${base}/ajeno`,
      eventos: "*",
    });
    expect(created.status).toBe(303);
    const detail = created.location!.split("?")[0]!;
    expect(detail).toMatch(/^\/panel\/webhooks\/[0-9a-f-]{36}$/);
    expect((await owner.get(created.location!)).text).toContain('id="secreto"');

    for (const path of [detail, `${detail}/rotar`, `${detail}/eliminar`]) {
      expect((await other.get(path)).status, path).toBe(404);
    }
    for (const action of ["prueba", "rotar", "eliminar"]) {
      const answer = await other.submit("/panel/webhooks", `${detail}/${action}`, {});
      expect(answer.status, action).toBe(404);
    }
    expect(csrfOf((await owner.get(detail)).text)).toBeDefined();
    const forged = await owner.request("POST", `${detail}/prueba`, { form: {} });
    expect(forged.status).toBe(403);
    expect(received.get("/ajeno")).toBeUndefined();
    // the owner still has it, unchanged
    const page = await owner.get(detail);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Todavía no hubo entregas");
  });
});
