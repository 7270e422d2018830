import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  http,
  randomCuit,
  scratch,
  signCsr,
  simDelegate,
  simPos,
  type DelegableService,
} from "../support/operator.js";
import { csrfOf, launchChromium, newUser, PanelClient } from "../support/panel.js";
import {
  auditPages,
  ARGENTINA,
  LAPTOP,
  PHONE,
  seriousViolations,
  watchErrors,
} from "../support/panel-audit.js";
import { startTestSmtp, type TestSmtp } from "../support/smtp.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

/** Today in Argentina (UTC−3), as the authority writes dates. */
const today = (offsetDays = 0) =>
  new Date(Date.now() - 3 * 3_600_000 + offsetDays * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .replaceAll("-", "");

/**
 * The dashboard driven in headless Chromium against the whole running gateway:
 * what a business owner does, page by page, and what the API then accepts or refuses.
 */
describe("dashboard in a real browser", { timeout: 180_000 }, () => {
  let stack: E2EStack;
  let browser: Browser;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    [stack, browser] = await Promise.all([
      startE2EStack({
        env: { LOG_LEVEL: "warn", SMTP_URL: smtp.url, MAIL_FROM: "panel@pasarela.test" },
      }),
      launchChromium(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.teardown();
    await smtp?.stop();
  });

  const url = (path: string) => `${stack.edgeUrl}${path}`;

  /** A read-write key made on the API keys page; answers its secret, shown once. */
  async function newKey(page: Page): Promise<string> {
    await page.goto(url("/panel/claves"));
    await page.selectOption("#scope", "read_write");
    await Promise.all([
      page.waitForURL(/\/panel\/claves\?nueva=/),
      page.click("text=Crear API key"),
    ]);
    return page.inputValue("#secreto");
  }

  /** Issues through the API, with `secret`, a Factura C of one item to a final consumer. */
  const issueFacturaC = (
    secret: string,
    cuit: string,
    ptoVta: number,
    item: { descripcion: string; cantidad: number; precioUnitario: string },
  ) => http(stack, "POST", "/api/wsfe/facturas", `Bearer ${secret}`, facturaC(cuit, ptoVta, item));

  /** A Factura C of one item to a final consumer, in homologación. */
  const facturaC = (
    cuit: string,
    ptoVta: number,
    item: { descripcion: string; cantidad: number; precioUnitario: string },
  ) => ({
    environment: "homologacion",
    representada: cuit,
    ptoVta,
    cbteTipo: 11,
    concepto: 1,
    docTipo: 99,
    docNro: "0",
    condicionIvaReceptorId: 5,
    items: [{ ...item, alicuotaIva: 0 }],
  });

  async function signUp(page: Page, user: ReturnType<typeof newUser>) {
    await page.goto(url("/panel/registrarse"));
    await page.fill("#accountName", user.accountName);
    await page.fill("#name", user.name);
    await page.fill("#email", user.email);
    await page.fill("#password", user.password);
    await page.fill("#password2", user.password);
    await Promise.all([page.waitForURL(/\/panel\/claves$/), page.click("button[type=submit]")]);
  }

  it("signs up, keeps a Secure HttpOnly session cookie, logs out and back in", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const user = newUser("Panaderia");
    await signUp(page, user);
    expect(await page.locator("header .who").innerText()).toContain(user.email);

    // Chromium keeps the Secure cookie on http://127.0.0.1, scoped to /panel
    const cookies = await context.cookies(url("/panel/claves"));
    const session = cookies.find((c) => c.name === "pasarela_sesion");
    expect(session).toMatchObject({
      httpOnly: true,
      secure: true,
      sameSite: "Lax",
      path: "/panel",
    });
    expect(await context.cookies(url("/api/cuenta"))).toEqual([]);

    await Promise.all([page.waitForURL(/\/panel\/ingresar/), page.click("text=Salir")]);
    await page.goto(url("/panel/claves"));
    expect(page.url()).toMatch(/\/panel\/ingresar$/);

    await page.fill("#email", user.email);
    await page.fill("#password", "no-es-la-clave");
    await page.click("button[type=submit]");
    expect((await page.locator(".notice.error").innerText()).trim()).toBe("Credenciales inválidas");

    await page.fill("#email", user.email);
    await page.fill("#password", user.password);
    await Promise.all([page.waitForURL(/\/panel\/uso$/), page.click("button[type=submit]")]);
    expect((await page.locator("h1").innerText()).trim()).toBe("Uso");
    await context.close();
  });

  it("creates a key shown once, sees its call in Uso, revokes it and the API refuses it", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signUp(page, newUser("Ferreteria"));

    await page.selectOption("#scope", "read_write");
    await Promise.all([
      page.waitForURL(/\/panel\/claves\?nueva=/),
      page.click("text=Crear API key"),
    ]);
    const secret = await page.inputValue("#secreto");
    expect(secret.length).toBeGreaterThan(20);
    expect(await page.locator(".notice.warn").first().innerText()).toContain("única vez");
    expect(await page.locator("button[data-copy]").isVisible()).toBe(true);

    await page.reload();
    expect(await page.locator("#secreto").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    expect(await page.locator(".notice.warn").innerText()).toContain("ya se mostró");

    const cuenta = await http(stack, "GET", "/api/cuenta", `Bearer ${secret}`);
    expect(cuenta.status).toBe(200);
    expect(cuenta.json()).toMatchObject({ scope: "read_write" });

    // the call reaches the usage history a moment later (the edge publishes it, billing batches)
    await expect
      .poll(
        async () => {
          await page.goto(url("/panel/uso?ruta=%2Fapi%2Fcuenta"));
          return page.locator("#historial tbody tr").count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBeGreaterThan(0);
    expect(await page.locator("#historial tbody tr").first().innerText()).toContain("/api/cuenta");
    expect(await page.locator("svg.chart rect").first().isVisible()).toBe(true);

    await page.goto(url("/panel/claves"));
    await Promise.all([page.waitForURL(/\/revocar$/), page.click("text=Revocar")]);
    await Promise.all([
      page.waitForURL(/\/panel\/claves\?revocada=/),
      page.click("text=Sí, revocar"),
    ]);
    expect(await page.locator("table").innerText()).toContain("Revocada");
    expect((await http(stack, "GET", "/api/cuenta", `Bearer ${secret}`)).status).toBe(401);
    await context.close();
  });

  it("creates a representada, downloads its CSR, refuses it as a certificate, uploads the signed one, probes, and opens an issued voucher's PDF from Comprobantes", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const dir = scratch();
    try {
      await signUp(page, newUser("Vineria"));
      await page.goto(url("/panel/representadas"));
      const cuit = randomCuit();
      await page.fill("#cuit", cuit);
      await page.selectOption("#environment", "homologacion");
      await page.fill("#alias", `panel${cuit.slice(-6)}`);
      await Promise.all([
        page.waitForURL(/\/panel\/representadas\/[0-9a-f-]{36}\?creada=1$/),
        page.click("text=Crear y generar CSR"),
      ]);
      expect(await page.locator("#csr").inputValue()).toContain("BEGIN CERTIFICATE REQUEST");

      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.click("text=Descargar .csr"),
      ]);
      expect(download.suggestedFilename()).toMatch(new RegExp(`^${cuit}-.+\\.csr$`));
      const csr = readFileSync(await download.path(), "utf8");
      expect(csr).toContain("-----BEGIN CERTIFICATE REQUEST-----");

      // the CSR itself uploaded as the certificate: refused with a clear message
      await page.setInputFiles("#certificadoArchivo", {
        name: "pedido.csr",
        mimeType: "application/pkcs10",
        buffer: Buffer.from(csr),
      });
      await page.click('button:has-text("Subir certificado")');
      await page.waitForLoadState();
      expect(await page.locator(".notice.error").innerText()).toContain("CSR");

      const certificate = await signCsr(stack, dir, "homologacion", csr);
      await page.fill("#certificado", certificate);
      await page.click('button:has-text("Subir certificado")');
      await page.waitForLoadState();
      expect(await page.locator(".notice.ok").first().innerText()).toContain("Certificado activo");
      expect(await page.locator(".card").first().innerText()).toContain("Activo");

      // nothing delegated yet: each service names its missing delegation and the fix
      await page.click("text=Probar conexión");
      await page.waitForSelector("#prueba");
      const before = await page.locator("#prueba tbody tr").allInnerTexts();
      expect(before.length).toBeGreaterThan(1);
      expect(before.join("\n")).toContain("SERVICE_NOT_DELEGATED");
      expect(before.join("\n")).toContain("WSASS");

      const alias = `panel${cuit.slice(-6)}`;
      const services = before.map((row) => row.split(/\s/)[0]!);
      // delegated at the authority with the simulator's CLI, as a developer would
      for (const service of services) {
        await simDelegate(stack, "homologacion", {
          cuit,
          alias,
          service: service as DelegableService,
        });
      }
      await page.click("text=Probar conexión");
      await page.waitForSelector("#prueba");
      expect(await page.locator("#prueba .notice").innerText()).toContain(
        "Todos los servicios respondieron",
      );

      // a voucher issued through the API with a key made here, then its PDF from Comprobantes
      await simPos(stack, "homologacion", { cuit, ptoVta: 4, service: "wsfe" });
      const secret = await newKey(page);
      const issued = await issueFacturaC(secret, cuit, 4, {
        descripcion: "Servicio",
        cantidad: 1,
        precioUnitario: "1500",
      });
      expect(issued.status, issued.text).toBe(200);
      // a Factura B of 9000 to a customer of the catalog, an attempt dated before it that the
      // authority rejects (10016), and the Factura B authorized next under the attempt's number
      const cliente = await http(stack, "POST", "/api/clientes", `Bearer ${secret}`, {
        docTipo: 96,
        docNro: "30123456",
        razonSocial: "Ana Compradora",
        condicionIvaReceptorId: 5,
      });
      expect(cliente.status, cliente.text).toBe(201);
      const facturaB = (extra: Record<string, unknown> = {}) =>
        http(stack, "POST", "/api/wsfe/facturas", `Bearer ${secret}`, {
          environment: "homologacion",
          representada: cuit,
          ptoVta: 4,
          cbteTipo: 6,
          concepto: 1,
          clienteId: cliente.json<{ id: string }>().id,
          items: [
            { descripcion: "Yerba", cantidad: 3, precioUnitario: "2479.34", alicuotaIva: 21 },
          ],
          ...extra,
        });
      const first = await facturaB();
      expect(first.status, first.text).toBe(200);
      const refused = await facturaB({ cbteFch: today(-2) });
      expect(refused.status, refused.text).toBe(422);
      const next = await facturaB();
      expect(next.status, next.text).toBe(200);

      await page.goto(url("/panel/comprobantes?entorno=homologacion"));
      const rows = page.locator("#comprobantes tbody tr");
      expect(await rows.count()).toBe(4);
      const row = rows.filter({ hasText: "Factura C 00004-00000001" });
      expect(await row.innerText()).toContain("Autorizado");
      expect(await row.innerText()).toContain("$ 1.500,00");
      expect(await row.innerText()).toContain("Consumidor final");
      const hoy = today();
      expect(await row.innerText()).toContain(
        `${hoy.slice(6)}/${hoy.slice(4, 6)}/${hoy.slice(0, 4)}`,
      );
      const facturaB1 = await rows.filter({ hasText: "Factura B 00004-00000001" }).innerText();
      expect(facturaB1).toContain("Autorizado");
      expect(facturaB1).toContain("$ 9.000,00");
      expect(facturaB1).toContain("Ana Compradora");
      expect(facturaB1).toContain("DNI 30.123.456");
      expect(facturaB1).not.toMatch(/\b96 30123456\b|PES/);
      // the rejected attempt and the voucher after it share a number, and do not look alike
      const attempt = rows.filter({ hasText: /Intento rechazado/ });
      expect(await attempt.count()).toBe(1);
      expect(await attempt.innerText()).toContain("Factura B 00004-00000002");
      // the authority's reasons, not the plain statement kept for an attempt without them
      expect(await attempt.innerText()).not.toContain("La AFIP no lo autorizó.");
      expect(await attempt.innerText()).toContain("El número quedó para el comprobante autorizado");
      expect(await attempt.locator("a", { hasText: "PDF" }).count()).toBe(0);
      const authorizedAfter = rows
        .filter({ hasText: "Factura B 00004-00000002" })
        .filter({ hasNotText: /Intento rechazado/ });
      expect(await authorizedAfter.innerText()).toContain("Autorizado");
      expect(await authorizedAfter.innerText()).toContain(
        "Antes, un intento rechazado con este número",
      );
      const href = await row.locator("a", { hasText: "PDF" }).getAttribute("href");
      const pdf = await page.request.get(url(href!));
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()["content-type"]).toContain("application/pdf");
      expect((await pdf.body()).subarray(0, 4).toString()).toBe("%PDF");
      // served inside the session: no public link is minted for a click
      expect(pdf.url()).toContain("/panel/comprobantes/pdf?");
      expect(pdf.headers()["content-disposition"]).toMatch(/^inline; filename=".+\.pdf"$/);
      // the type filter offers the types by name
      await page.selectOption("#tipo", { label: "Factura B" });
      await Promise.all([page.waitForURL(/tipo=6/), page.click("text=Filtrar")]);
      expect(await page.locator("#comprobantes tbody tr").count()).toBe(3);
    } finally {
      dir.remove();
      await context.close();
    }
  });

  it("resets a forgotten password through the e-mailed link and ends the old sessions", async () => {
    const user = newUser("Floreria");
    const old = new PanelClient(stack.edgeUrl);
    await old.signup(user);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(url("/panel/ingresar"));
    await Promise.all([
      page.waitForURL(/\/panel\/olvide$/),
      page.click("text=Olvidé mi contraseña"),
    ]);
    await page.fill("#email", user.email);
    await page.click("button[type=submit]");
    await page.waitForLoadState();
    expect(await page.locator(".notice.ok").innerText()).toContain("te enviamos el enlace");

    let link: string | undefined;
    for (let i = 0; i < 100 && !link; i++) {
      const mail = smtp.received.find((m) => m.rcptTo.includes(user.email));
      link = mail && /https?:\/\/\S+/.exec(mail.parsed.text ?? "")?.[0];
      if (!link) await new Promise((r) => setTimeout(r, 200));
    }
    expect(link).toBeDefined();
    expect(link!.startsWith(`${stack.edgeUrl}/panel/restablecer?token=`)).toBe(true);
    await page.goto(link!);
    const nueva = `${user.password}-otra`;
    await page.fill("#password", nueva);
    await page.fill("#password2", nueva);
    await Promise.all([
      page.waitForURL(/\/panel\/ingresar\?listo=restablecida$/),
      page.click("button[type=submit]"),
    ]);
    expect(await page.locator(".notice.ok").innerText()).toContain("Tu contraseña cambió");
    expect((await old.get("/panel/claves")).status).toBe(303);
    await page.fill("#email", user.email);
    await page.fill("#password", nueva);
    await Promise.all([page.waitForURL(/\/panel\/uso$/), page.click("button[type=submit]")]);
    // the link works once
    await page.goto(link!);
    await page.fill("#password", `${nueva}-2`);
    await page.fill("#password2", `${nueva}-2`);
    await page.click("main button[type=submit]");
    await page.waitForLoadState();
    expect(await page.locator(".notice.error").innerText()).toContain("no es válido");
    await context.close();
  });

  it("opens a support ticket and shows the operator's reply", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await signUp(page, newUser("Libreria"));
    await page.goto(url("/panel/soporte"));
    await page.fill("#asunto", "No veo mis facturas");
    await page.fill("#mensaje", "Emití una factura y no aparece <b>en el panel</b>.");
    await Promise.all([
      page.waitForURL(/\/panel\/soporte\/[0-9a-f-]{36}$/),
      page.click("text=Enviar"),
    ]);
    expect(await page.locator("article").first().innerText()).toContain("<b>en el panel</b>");
    const id = page.url().split("/").pop()!;

    // the operator lists the open tickets and answers through the CLI
    const open = await stack.admin<{ tickets: { id: string }[] }>("soporte", "list");
    expect(open.tickets.map((t) => t.id)).toContain(id);
    await stack.admin(
      "soporte",
      "reply",
      "--id",
      id,
      "--mensaje",
      "Ya quedó visible: era el filtro de entorno.",
    );
    await page.reload();
    expect(await page.locator("article").last().innerText()).toContain("Soporte de pasarela");
    expect(await page.locator("article").last().innerText()).toContain("era el filtro de entorno");
    await page.goto(url("/panel/soporte"));
    expect(await page.locator("table").innerText()).toContain("Respondido");
    await context.close();
  });

  it("shows a refused form's error beside its field, focused, and a reload never sends the form again", async () => {
    const context = await browser.newContext({ viewport: LAPTOP, ...ARGENTINA });
    const page = await context.newPage();
    try {
      await signUp(page, newUser("Verduleria"));
      await page.goto(url("/panel/representadas"));
      await page.fill("#cuit", "20111111113");
      await Promise.all([
        page.waitForURL(/\/panel\/representadas\?resultado=[0-9a-f-]{36}$/),
        page.click("text=Crear y generar CSR"),
      ]);
      // the message sits under the field, tied to it, and the field has the focus
      const cuit = page.locator("#cuit");
      expect(await cuit.getAttribute("aria-invalid")).toBe("true");
      expect(await cuit.getAttribute("aria-describedby")).toBe("cuit-error");
      expect(await page.locator("#cuit-error").innerText()).toContain("CUIT inválida");
      expect(await page.evaluate<string | undefined>("document.activeElement?.id")).toBe("cuit");
      expect(await page.locator(".notice.error").count()).toBe(0);
      // a reload asks for the page again, never for the form to be posted again
      const sent: string[] = [];
      page.on("request", (r) => {
        if (r.isNavigationRequest()) sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
      });
      await page.reload();
      expect(sent).toEqual(["GET /panel/representadas"]);
      // a form that succeeds shows its outcome the same way: the password change
      await page.goto(url("/panel/contrasena"));
      const user = await page.locator("header .who").innerText();
      expect(user).toContain("@");
      sent.length = 0;
      await page.fill("#current", "contraseña equivocada");
      await page.fill("#password", "otra-clave-larga-123");
      await page.fill("#password2", "otra-clave-larga-123");
      await Promise.all([
        page.waitForURL(/\/panel\/contrasena\?resultado=/),
        page.click("main button[type=submit]"),
      ]);
      expect(await page.locator("#current").getAttribute("aria-invalid")).toBe("true");
      await page.reload();
      expect(sent.filter((line) => line.startsWith("POST"))).toEqual(["POST /panel/contrasena"]);
      // the issuer profile takes its VAT condition from a list and its start date from a calendar
      await page.goto(url("/panel/representadas"));
      const cuitOk = randomCuit("30");
      await page.fill("#cuit", cuitOk);
      await Promise.all([
        page.waitForURL(/\/panel\/representadas\/[0-9a-f-]{36}\?creada=1$/),
        page.click("text=Crear y generar CSR"),
      ]);
      await page.selectOption("#condicionIva", "Responsable Monotributo");
      await page.fill("#inicioActividades", "2020-03-01");
      await Promise.all([
        page.waitForURL(/\/panel\/representadas\/[0-9a-f-]{36}\?resultado=/),
        page.click("text=Guardar perfil"),
      ]);
      expect(await page.locator(".notice.ok").innerText()).toContain("Perfil guardado");
      expect(await page.inputValue("#condicionIva")).toBe("Responsable Monotributo");
      expect(await page.inputValue("#inicioActividades")).toBe("2020-03-01");
    } finally {
      await context.close();
    }
  });

  describe("security", () => {
    it("answers 403 to a form without its token or with another session's", async () => {
      const a = new PanelClient(stack.edgeUrl);
      const b = new PanelClient(stack.edgeUrl);
      await a.signup(newUser("Kiosco"));
      await b.signup(newUser("Almacen"));
      const bToken = csrfOf((await b.get("/panel/claves")).text)!;
      const forms: Record<string, string>[] = [
        { scope: "read_only" },
        { scope: "read_only", _csrf: bToken },
      ];
      for (const form of forms) {
        const answer = await a.request("POST", "/panel/claves", { form });
        expect(answer.status).toBe(403);
        expect(answer.text).toContain("El formulario venció o no es válido");
      }
      // before login too: the login form needs the token of its own pre-login cookie
      const stranger = new PanelClient(stack.edgeUrl);
      const login = await stranger.request("POST", "/panel/ingresar", {
        form: { email: "x@ejemplo.com.ar", password: "cualquiera-123" },
      });
      expect(login.status).toBe(403);
    });

    it("sets the session cookie HttpOnly, Secure, SameSite=Lax, Path=/panel, and sends strict headers", async () => {
      const client = new PanelClient(stack.edgeUrl);
      const answer = await client.signup(newUser("Verduleria"));
      const cookie = answer.setCookies.find((c) => c.startsWith("pasarela_sesion="))!;
      expect(cookie).toMatch(/; Path=\/panel/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      const page = await client.get("/panel/uso");
      expect(page.status).toBe(200);
      expect(page.headers.get("content-security-policy")).toMatch(/^default-src 'self'/);
      expect(page.headers.get("x-frame-options")).toBe("DENY");
      expect(page.headers.get("referrer-policy")).toBe("no-referrer");
      expect(page.text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    });

    it("throttles repeated failed logins with a 429 page", async () => {
      const user = newUser("Optica");
      await new PanelClient(stack.edgeUrl).signup(user);
      const client = new PanelClient(stack.edgeUrl);
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        statuses.push((await client.login(user.email, "clave-equivocada")).status);
      }
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.at(-1)).toBe(429);
      const throttled = await client.login(user.email, user.password);
      expect(throttled.status).toBe(429);
      expect(throttled.text).toContain("Demasiados intentos fallidos de inicio de sesión");
      // the page says when, and so does the header
      expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    });

    it("never shows one account's data to another: swapped ids are a 404 page", async () => {
      const a = new PanelClient(stack.edgeUrl);
      const b = new PanelClient(stack.edgeUrl);
      await a.signup(newUser("Carniceria"));
      await b.signup(newUser("Pescaderia"));
      const created = await a.submit("/panel/claves", "/panel/claves", { scope: "read_only" });
      expect(created.status).toBe(303);
      const keyId = /\/panel\/claves\/([0-9a-f-]{36})\/revocar/.exec(
        (await a.get("/panel/claves")).text,
      )?.[1];
      expect(keyId).toBeDefined();
      const ticket = await a.submit("/panel/soporte", "/panel/soporte", {
        asunto: "Consulta",
        mensaje: "Hola",
      });
      const ticketPath = ticket.location!;
      expect(ticketPath).toMatch(/^\/panel\/soporte\/[0-9a-f-]{36}$/);

      expect((await b.get(`/panel/claves/${keyId!}/revocar`)).status).toBe(404);
      expect((await b.get(ticketPath)).status).toBe(404);
      const revoke = await b.submit("/panel/claves", `/panel/claves/${keyId!}/revocar`, {});
      expect(revoke.status).toBe(404);
      expect((await a.get(`/panel/claves/${keyId!}/revocar`)).status).toBe(200);
      expect((await a.get(ticketPath)).status).toBe(200);
    });

    it("keeps the two credentials apart: a session cookie is not an API key, a key is not a session", async () => {
      const client = new PanelClient(stack.edgeUrl);
      await client.signup(newUser("Bazar"));
      const created = await client.submit("/panel/claves", "/panel/claves", {
        scope: "read_write",
      });
      const secret = /id="secreto"[^>]*value="([^"]+)"/.exec(
        (await client.get(created.location!)).text,
      )?.[1];
      expect(secret).toBeDefined();
      const api = await fetch(url("/api/cuenta"), { headers: { cookie: client.cookieHeader() } });
      expect(api.status).toBe(401);
      const panel = await new PanelClient(stack.edgeUrl).get("/panel/claves", {
        authorization: `Bearer ${secret!}`,
      });
      expect(panel.status).toBe(303);
      expect(panel.location).toBe("/panel/ingresar");
    });

    it("ends every session of a user when the password changes", async () => {
      const user = newUser("Jugueteria");
      const first = new PanelClient(stack.edgeUrl);
      await first.signup(user);
      const second = new PanelClient(stack.edgeUrl);
      expect((await second.login(user.email, user.password)).status).toBe(303);
      const changed = await first.submit("/panel/contrasena", "/panel/contrasena", {
        current: user.password,
        password: `${user.password}-nueva`,
        password2: `${user.password}-nueva`,
      });
      expect(changed.status).toBe(200);
      expect(changed.text).toContain("Tu contraseña cambió");
      expect((await second.get("/panel/claves")).status).toBe(303);
      expect((await first.get("/panel/claves")).status).toBe(200);
      const out = await first.submit("/panel/uso", "/panel/salir", {});
      expect(out.status).toBe(303);
      expect((await first.get("/panel/claves")).status).toBe(303);
    });
  });

  describe("every page on a laptop and on a phone", () => {
    it("visits every page of a business with a key, a representada, a voucher, calls and a ticket", async () => {
      const context = await browser.newContext({ viewport: LAPTOP, ...ARGENTINA });
      const page = await context.newPage();
      const errors = watchErrors(page);
      const dir = scratch();
      try {
        await signUp(page, newUser("Heladeria"));
        // a representada with its certificate, delegated and with a point of sale
        await page.goto(url("/panel/representadas"));
        const cuit = randomCuit("30");
        const alias = `hela${cuit.slice(-6)}`;
        await page.fill("#cuit", cuit);
        await page.selectOption("#environment", "homologacion");
        await page.fill("#alias", alias);
        await Promise.all([
          page.waitForURL(/\/panel\/representadas\/[0-9a-f-]{36}\?creada=1$/),
          page.click("text=Crear y generar CSR"),
        ]);
        const representada = new URL(page.url()).pathname;
        const csr = await page.locator("#csr").inputValue();
        await page.fill("#certificado", await signCsr(stack, dir, "homologacion", csr));
        await page.click('button:has-text("Subir certificado")');
        await page.waitForLoadState();
        await simDelegate(stack, "homologacion", { cuit, alias, service: "wsfe" });
        await simPos(stack, "homologacion", { cuit, ptoVta: 3, service: "wsfe" });

        // a key, a voucher issued with it and a call that fails
        const secret = await newKey(page);
        const issued = await issueFacturaC(secret, cuit, 3, {
          descripcion: "Helado",
          cantidad: 2,
          precioUnitario: "4500",
        });
        expect(issued.status, issued.text).toBe(200);
        await http(stack, "GET", "/api/clientes/no-existe", `Bearer ${secret}`);
        const revocar = await page
          .locator("a", { hasText: "Revocar" })
          .first()
          .getAttribute("href");

        await page.goto(url("/panel/soporte"));
        await page.fill("#asunto", "Consulta sobre una factura");
        await page.fill("#mensaje", "¿Cómo la envío por e-mail?");
        await Promise.all([
          page.waitForURL(/\/panel\/soporte\/[0-9a-f-]{36}$/),
          page.click("text=Enviar"),
        ]);
        const ticket = new URL(page.url()).pathname;
        await expect
          .poll(
            async () => {
              await page.goto(url("/panel/uso"));
              return page.locator("#historial tbody tr").count();
            },
            { timeout: 20_000, interval: 500 },
          )
          .toBeGreaterThan(0);
        const problems = errors.take().map((found) => `before the visits: ${found}`);
        problems.push(
          ...(await auditPages(
            page,
            url,
            {
              uso: "/panel/uso",
              claves: "/panel/claves",
              revocar: revocar!,
              representadas: "/panel/representadas",
              representada,
              comprobantes: "/panel/comprobantes?entorno=homologacion",
              soporte: "/panel/soporte",
              ticket,
              contrasena: "/panel/contrasena",
            },
            errors,
          )),
        );

        // on the phone: one band with "Salir" inside it, the sections under "Menú"
        await page.setViewportSize(PHONE);
        await page.goto(url("/panel/uso"));
        const band = (await page.locator("header.top").boundingBox())!;
        const salir = (await page
          .locator("header.top button", { hasText: "Salir" })
          .boundingBox())!;
        expect(band.height).toBeLessThan(80);
        expect(salir.y).toBeGreaterThanOrEqual(band.y);
        expect(salir.y + salir.height).toBeLessThanOrEqual(band.y + band.height);
        expect(await page.locator("header nav").isVisible()).toBe(false);
        await page.click("header summary");
        expect(await page.locator("header nav a", { hasText: "Comprobantes" }).isVisible()).toBe(
          true,
        );
        problems.push(...(await seriousViolations(page)).map((found) => `menu open: ${found}`));
        // the quota cards one under the other, the chart drawn for the phone
        const [facturas, padrones] = await page.locator(".grid2 > .card").all();
        expect((await padrones!.boundingBox())!.y).toBeGreaterThan(
          (await facturas!.boundingBox())!.y + 20,
        );
        const label = await page.locator("svg.chart.narrow text").first().boundingBox();
        expect(label!.height).toBeGreaterThanOrEqual(10);
        expect(await page.locator("svg.chart.wide").isVisible()).toBe(false);

        // on the laptop the band is as tall on every page, the public ones too
        await page.setViewportSize(LAPTOP);
        const heights = new Set<number>();
        for (const path of ["/panel/uso", "/panel/representadas", "/panel/contrasena"]) {
          await page.goto(url(path));
          heights.add((await page.locator("header.top").boundingBox())!.height);
        }
        const visitor = await browser.newContext({ viewport: LAPTOP });
        const outside = await visitor.newPage();
        const outsideErrors = watchErrors(outside);
        await outside.goto(url("/panel/ingresar"));
        heights.add((await outside.locator("header.top").boundingBox())!.height);
        expect([...heights]).toHaveLength(1);
        problems.push(
          ...(await auditPages(
            outside,
            url,
            {
              ingresar: "/panel/ingresar",
              registrarse: "/panel/registrarse",
              olvide: "/panel/olvide",
              restablecer: "/panel/restablecer?token=un-enlace-de-prueba",
            },
            outsideErrors,
          )),
        );
        await visitor.close();
        expect(problems).toEqual([]);
      } finally {
        dir.remove();
        await context.close();
      }
    });
  });
});
