/**
 * `npm run screenshots`: every dashboard page at 1280×800, taken in Debian's headless
 * Chromium against a whole local stack with the simulator, saved as docs/dashboard/*.png.
 * Infrastructure as the tests find it (NATS_URL/DATABASE_URL, else private servers).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeControlClient } from "@pasarela/authority-sim";
import { connectBus } from "@pasarela/bus";
import { billing } from "@pasarela/contracts";
import { ensureDatabase, startStack } from "@pasarela/stack";
import { createLogger, startTracing } from "@pasarela/telemetry";
import { dropDatabase, resolveTestInfra } from "@pasarela/testing";
import type { Page } from "playwright-core";
import { repoRoot } from "../support/cli.js";
import { randomCuit } from "../support/operator.js";
import { launchChromium } from "../support/panel.js";

const OUT = join(repoRoot, "docs", "dashboard");

async function main(): Promise<void> {
  const infra = await resolveTestInfra();
  const database = `pasarela_screens_${process.pid}`;
  const databaseUrl = await ensureDatabase(infra.databaseUrl, database);
  const prefix = `shots${randomBytes(3).toString("hex")}`;
  const pdfDir = mkdtempSync(join(tmpdir(), "pasarela-shots-"));
  const stack = await startStack({
    root: repoRoot,
    natsUrl: infra.natsUrl,
    databaseUrl,
    prefix,
    simulator: {},
    env: {
      API_KEY_PEPPER: randomBytes(32).toString("base64"),
      KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      CURSOR_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "warn",
      PDF_STORAGE_DIR: pdfDir,
    },
    output: "memory",
  });
  const operator = await connectBus({
    url: infra.natsUrl,
    prefix,
    name: "screenshots",
    logger: createLogger({ service: "screenshots", level: "silent" }),
    tracer: startTracing({ service: "screenshots" }).tracer,
  });
  // the business's own receiver of webhooks: one address answers 204, the other is down (503)
  const receiver = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(req.url === "/caido" ? 503 : 204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  const control = makeControlClient(stack.simulatorUrl!);
  mkdirSync(OUT, { recursive: true });
  const url = (path: string) => `${stack.edgeUrl}${path}`;
  const shot = async (page: Page, name: string) => {
    await page.screenshot({ path: join(OUT, `${name}.png`) });
    process.stdout.write(`docs/dashboard/${name}.png\n`);
  };
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      // what a user in Argentina sees: dd/mm/aaaa in date fields
      locale: "es-AR",
      timezoneId: "America/Argentina/Buenos_Aires",
    });
    const page = await context.newPage();

    await page.goto(url("/panel/ingresar"));
    await shot(page, "ingresar");
    await page.goto(url("/panel/olvide"));
    await shot(page, "olvide");
    await page.goto(url("/panel/registrarse"));
    const password = "una-clave-bien-larga";
    await page.fill("#accountName", "Panadería La Espiga SRL");
    await page.fill("#name", "Lucía Fernández");
    await page.fill("#email", "lucia@laespiga.com.ar");
    await page.fill("#password", password);
    await page.fill("#password2", password);
    await shot(page, "registrarse");
    await Promise.all([page.waitForURL(/\/panel\/claves$/), page.click("button[type=submit]")]);

    // a representada with its certificate, delegated for wsfe only, and one still pending
    const cuit = randomCuit("30");
    await page.goto(url("/panel/representadas"));
    await page.fill("#cuit", cuit);
    await page.fill("#alias", "espiga-homo");
    await page.fill("#ptoVta", "4");
    await Promise.all([
      page.waitForURL(/\/panel\/representadas\/[0-9a-f-]{36}\?creada=1$/),
      page.click("text=Crear y generar CSR"),
    ]);
    const detail = page.url().split("?")[0]!;
    const csr = await page.locator("#csr").inputValue();
    await page.fill("#certificado", await control.issueCertificate("homologacion", csr));
    await page.click('button:has-text("Subir certificado")');
    await page.waitForLoadState();
    await control.delegate("homologacion", { cuit, alias: "espiga-homo", service: "wsfe" });
    await control.enablePointOfSale("homologacion", { cuit, ptoVta: 4, service: "wsfe" });
    await page.goto(detail);
    await page.click("text=Probar conexión");
    await page.waitForSelector("#prueba");
    await page.locator("#prueba").scrollIntoViewIfNeeded();
    await shot(page, "representada-prueba");

    await page.goto(url("/panel/representadas"));
    await page.fill("#cuit", randomCuit("20"));
    await page.selectOption("#environment", "produccion");
    await Promise.all([
      page.waitForURL(/\/panel\/representadas\/[0-9a-f-]{36}\?creada=1$/),
      page.click("text=Crear y generar CSR"),
    ]);
    await shot(page, "representada-csr");
    await page.goto(url("/panel/representadas"));
    await shot(page, "representadas");

    // keys: one shown once, then calls with it
    await page.goto(url("/panel/claves"));
    await page.selectOption("#scope", "read_write");
    await Promise.all([
      page.waitForURL(/\/panel\/claves\?nueva=/),
      page.click("text=Crear API key"),
    ]);
    const secret = await page.inputValue("#secreto");
    await shot(page, "claves-nueva");
    const api = (method: string, path: string, body?: unknown) =>
      fetch(url(path), {
        method,
        headers: {
          authorization: `Bearer ${secret}`,
          ...(body ? { "content-type": "application/json" } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then((r) => r.text());
    for (const precio of ["1500", "2750.50", "980"]) {
      await api("POST", "/api/wsfe/facturas", {
        environment: "homologacion",
        representada: cuit,
        ptoVta: 4,
        cbteTipo: 11,
        concepto: 1,
        docTipo: 99,
        docNro: "0",
        condicionIvaReceptorId: 5,
        items: [
          { descripcion: "Pan y facturas", cantidad: 1, precioUnitario: precio, alicuotaIva: 0 },
        ],
      });
    }
    for (let i = 0; i < 6; i++) await api("GET", "/api/cuenta");
    await api("GET", "/api/clientes/no-existe");
    await api("POST", "/api/wsfe/facturas", { environment: "homologacion" });
    await page.goto(url("/panel/claves"));
    await shot(page, "claves");
    await page.click("text=Revocar");
    await page.waitForURL(/\/revocar$/);
    await shot(page, "claves-revocar");

    // usage reaches the history a moment later
    for (let i = 0; i < 40; i++) {
      await page.goto(url("/panel/uso"));
      if ((await page.locator("#historial tbody tr").count()) >= 10) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await shot(page, "uso");
    await page.locator("#historial").scrollIntoViewIfNeeded();
    await shot(page, "uso-historial");

    await page.goto(url("/panel/comprobantes?entorno=homologacion"));
    await shot(page, "comprobantes");

    // webhooks: one registered (its secret shown once), tested, receiving a voucher's event
    await page.goto(url("/panel/webhooks"));
    await page.fill("#url", `${receiverUrl}/pasarela/eventos`);
    for (const evento of ["comprobante.autorizado", "comprobante.rechazado", "cobro.pagado"]) {
      await page.check(`input[name=eventos][value="${evento}"]`);
    }
    await page.fill("#descripcion", "ERP de la panadería");
    await Promise.all([
      page.waitForURL(/\/panel\/webhooks\/[0-9a-f-]{36}\?secreto=/),
      page.click("text=Registrar webhook"),
    ]);
    const webhook = page.url().split("?")[0]!;
    await shot(page, "webhook-nuevo");
    await Promise.all([
      page.waitForURL(/\?resultado=/),
      page.click("text=Enviar evento de prueba"),
    ]);
    await api("POST", "/api/wsfe/facturas", {
      environment: "homologacion",
      representada: cuit,
      ptoVta: 4,
      cbteTipo: 11,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [{ descripcion: "Medialunas", cantidad: 12, precioUnitario: "450", alicuotaIva: 0 }],
    });
    for (let i = 0; i < 40; i++) {
      await page.goto(webhook);
      if ((await page.locator("#entregas .badge.ok").count()) >= 2) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await shot(page, "webhook");
    await page.locator("#entregas").scrollIntoViewIfNeeded();
    await shot(page, "webhook-entregas");
    await page.goto(`${webhook}/rotar`);
    await shot(page, "webhook-rotar");
    await page.goto(url("/panel/webhooks"));
    await page.fill("#url", `${receiverUrl}/caido`);
    await page.check('input[name=eventos][value="*"]');
    await page.fill("#descripcion", "Servidor de pruebas");
    await Promise.all([
      page.waitForURL(/\/panel\/webhooks\/[0-9a-f-]{36}\?secreto=/),
      page.click("text=Registrar webhook"),
    ]);
    await page.goto(url("/panel/webhooks"));
    await shot(page, "webhooks");

    await page.goto(url("/panel/soporte"));
    await page.fill("#asunto", "Factura C rechazada por fecha");
    await page.fill(
      "#mensaje",
      "Emití una factura con fecha de ayer y la AFIP la rechazó. ¿Qué revisamos?",
    );
    await Promise.all([
      page.waitForURL(/\/panel\/soporte\/[0-9a-f-]{36}$/),
      page.click("text=Enviar"),
    ]);
    const ticketId = page.url().split("/").pop()!;
    await operator.request(billing.soporteOperadorReply, {
      id: ticketId,
      mensaje:
        "Hola Lucía: la fecha no puede ser anterior a la del último comprobante del punto de venta. Emitila con la fecha de hoy.",
    });
    await page.reload();
    await shot(page, "soporte-ticket");
    await page.goto(url("/panel/soporte"));
    await shot(page, "soporte");

    await page.goto(url("/panel/contrasena"));
    await shot(page, "contrasena");
    await context.close();
  } finally {
    await browser.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await operator.close();
    await stack.stop();
    await dropDatabase(infra.databaseUrl, database).catch(() => undefined);
    await infra.stop();
    rmSync(pdfDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
