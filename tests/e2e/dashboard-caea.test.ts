import { writeFileSync } from "node:fs";
import { makeControlClient, type ControlClient } from "@pasarela/authority-sim";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  randomCuit,
  scratch,
  signCsr,
  simDelegate,
  simPos,
  type Scratch,
} from "../support/operator.js";
import { launchChromium, newUser } from "../support/panel.js";
import { ARGENTINA, auditPages, LAPTOP, watchErrors } from "../support/panel-audit.js";
import { pdfQr, pdfText, qrPayload } from "../support/pdf.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually } from "../support/wait.js";

const env = "homologacion" as const;
const CAE_PTO_VTA = 3;
const CAEA_PTO_VTA = 90;

interface CaeaShown {
  caea: string;
  fchVigDesde: string;
  fchVigHasta: string;
  fchTopeInf: string;
}

interface Listed {
  state: string;
  ptoVta: number;
  cbteNro: number;
  tipoAutorizacion: string;
  cae: string | null;
  caea?: string;
  caeaVencimiento?: string;
  caeaInformadoAt?: string;
}

/** AAAAMMDD as dd/mm/aaaa, as the voucher and the panel print it. */
const ddmmaaaa = (d: string) => `${d.slice(6, 8)}/${d.slice(4, 6)}/${d.slice(0, 4)}`;

/**
 * A voucher issued in contingency, shown where a voucher is shown, through the running stack:
 * the list of the API (its kind of authorization, its informing as its state, the filter),
 * its printed voucher (CAEA labels, QR with tipoCodAut A, read back with pdftotext and zbarimg)
 * and the panel (the representada's contingency and CAEAs, the voucher's CAEA badge and
 * state, the view of those still to be informed, and an asynchronous issuance with its
 * result), audited at every width.
 */
describe("a voucher issued under a CAEA: API, PDF and panel", { timeout: 240_000 }, () => {
  let stack: E2EStack;
  let browser: Browser;
  let control: ControlClient;
  let dir: Scratch;

  beforeAll(async () => {
    [stack, browser] = await Promise.all([
      startE2EStack({
        // the informing job (when present) waits: the voucher stays to be informed meanwhile
        env: {
          LOG_LEVEL: "warn",
          CAEA_CHECK_INTERVAL_MS: "1000",
          CAEA_INFORM_INTERVAL_MS: "600000",
        },
      }),
      launchChromium(),
    ]);
    control = makeControlClient(stack.simulatorUrl!);
    dir = scratch();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.teardown();
    dir?.remove();
  });

  const url = (path: string) => `${stack.edgeUrl}${path}`;

  async function signUp(page: Page) {
    const user = newUser("Kiosco");
    await page.goto(url("/panel/registrarse"));
    await page.fill("#accountName", user.accountName);
    await page.fill("#name", user.name);
    await page.fill("#email", user.email);
    await page.fill("#password", user.password);
    await page.fill("#password2", user.password);
    await Promise.all([page.waitForURL(/\/panel\/claves$/), page.click("button[type=submit]")]);
  }

  /** A read-write key made on the API keys page, as `Bearer <secret>`. */
  async function newKey(page: Page): Promise<string> {
    await page.goto(url("/panel/claves"));
    await page.selectOption("#scope", "read_write");
    await Promise.all([
      page.waitForURL(/\/panel\/claves\?nueva=/),
      page.click("text=Crear API key"),
    ]);
    return `Bearer ${await page.inputValue("#secreto")}`;
  }

  /** The PDF's text (blank runs as one space) and its QR's RG 4892 payload. */
  async function printed(auth: string, cuit: string, ptoVta: number, cbteNro: number) {
    const answer = await fetch(url("/api/wsfe/comprobantes/pdf"), {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify({ environment: env, representada: cuit, ptoVta, cbteTipo: 11, cbteNro }),
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
    const file = dir.file(`c-${ptoVta}-${cbteNro}.pdf`, "");
    writeFileSync(file, Buffer.from(await answer.arrayBuffer()));
    return { text: pdfText(file).replace(/[ \t]+/g, " "), qr: qrPayload(pdfQr(file)) };
  }

  it("lists it to be informed, prints it as CAEA with tipoCodAut A, and the panel shows the contingency and the voucher", async () => {
    const context = await browser.newContext({ viewport: LAPTOP, ...ARGENTINA });
    const page = await context.newPage();
    const errors = watchErrors(page);
    try {
      await signUp(page);
      await page.goto(url("/panel/representadas"));
      const cuit = randomCuit("30");
      const alias = `caea${cuit.slice(-6)}`;
      await page.fill("#cuit", cuit);
      await page.selectOption("#environment", env);
      await page.fill("#alias", alias);
      await Promise.all([
        page.waitForURL(/\/panel\/representadas\/[0-9a-f-]{36}\?creada=1$/),
        page.click("text=Crear y generar CSR"),
      ]);
      const representada = new URL(page.url()).pathname;
      const representadaId = representada.split("/").at(-1)!;
      const csr = await page.locator("#csr").inputValue();
      await page.fill("#certificado", await signCsr(stack, dir, env, csr));
      await page.click('button:has-text("Subir certificado")');
      await page.waitForLoadState();
      await simDelegate(stack, env, { cuit, alias, service: "wsfe" });
      await simPos(stack, env, { cuit, ptoVta: CAE_PTO_VTA, service: "wsfe" });
      await control.enablePointOfSale(env, { cuit, ptoVta: CAEA_PTO_VTA, emisionTipo: "CAEA" });

      // off by default: the card says so
      await page.goto(url(representada));
      expect(
        await page.locator("section", { hasText: "Contingencia (CAEA)" }).innerText(),
      ).toContain("Apagada");

      const auth = await newKey(page);
      const on = await http(stack, "PATCH", `/api/representadas/${representadaId}`, auth, {
        contingencia: { caea: true, puntosDeVenta: [CAEA_PTO_VTA] },
      });
      expect(on.status, on.text).toBe(200);
      const caea = await eventually(
        "the fortnight's CAEA",
        async () => {
          const shown = await http(stack, "GET", `/api/representadas/${representadaId}`, auth);
          return (
            shown.json<{ caea: { actual: CaeaShown | null } | null }>().caea?.actual ?? undefined
          );
        },
        { timeoutMs: 30_000, intervalMs: 300 },
      );

      const factura = (extra: Record<string, unknown> = {}) => ({
        environment: env,
        representada: cuit,
        ptoVta: CAE_PTO_VTA,
        cbteTipo: 11,
        concepto: 1,
        docTipo: 99,
        docNro: "0",
        condicionIvaReceptorId: 5,
        items: [{ descripcion: "Alfajor", cantidad: 2, precioUnitario: "900", alicuotaIva: 0 }],
        ...extra,
      });
      const cae = await http(stack, "POST", "/api/wsfe/facturas", auth, factura());
      expect(cae.status, cae.text).toBe(200);
      const offline = await http(
        stack,
        "POST",
        "/api/wsfe/facturas",
        auth,
        factura({ contingencia: "caea" }),
      );
      expect(offline.status, offline.text).toBe(200);
      expect(offline.json()).toMatchObject({ tipoAutorizacion: "CAEA", ptoVta: CAEA_PTO_VTA });
      const caeaNro = offline.json<{ cbteNro: number }>().cbteNro;

      // the API's list: the CAE voucher as before plus its kind; the CAEA one to be informed
      const list = async (query = "") => {
        const answer = await http(
          stack,
          "GET",
          `/api/wsfe/comprobantes?environment=${env}${query}`,
          auth,
        );
        expect(answer.status, answer.text).toBe(200);
        return answer.json<{ items: Listed[] }>().items;
      };
      const all = await list();
      expect(all).toHaveLength(2);
      const caeItem = all.find((i) => i.ptoVta === CAE_PTO_VTA)!;
      const caeaItem = all.find((i) => i.ptoVta === CAEA_PTO_VTA)!;
      expect(caeItem).toMatchObject({ state: "authorized", tipoAutorizacion: "CAE" });
      expect(caeItem).not.toHaveProperty("caea");
      expect(caeaItem).toMatchObject({
        state: "caea_pendiente",
        tipoAutorizacion: "CAEA",
        cbteNro: caeaNro,
        cae: caea.caea,
        caea: caea.caea,
        caeaVencimiento: caea.fchVigHasta,
      });
      expect(caeaItem).not.toHaveProperty("caeaInformadoAt");
      expect((await list("&state=caea_pendiente")).map((i) => i.ptoVta)).toEqual([CAEA_PTO_VTA]);
      expect((await list("&state=authorized")).map((i) => i.ptoVta)).toEqual([CAE_PTO_VTA]);
      expect(await list("&state=caea_rechazado")).toEqual([]);

      // printed: CAEA where a CAE voucher says CAE, and the QR says tipoCodAut A
      const caeaPdf = await printed(auth, cuit, CAEA_PTO_VTA, caeaNro);
      expect(caeaPdf.text).toMatch(new RegExp(`CAEA N°:? ${caea.caea}`));
      expect(caeaPdf.text).toMatch(
        new RegExp(
          `Fecha de Vto\\. de CAEA:? ${ddmmaaaa(caea.fchVigHasta).replaceAll("/", "\\/")}`,
        ),
      );
      expect(caeaPdf.qr).toMatchObject({
        ptoVta: CAEA_PTO_VTA,
        nroCmp: caeaNro,
        tipoCodAut: "A",
        codAut: Number(caea.caea),
      });
      const caePdf = await printed(auth, cuit, CAE_PTO_VTA, caeItem.cbteNro);
      expect(caePdf.text).toMatch(/CAE N°:? \d{14}/);
      expect(caePdf.text).not.toContain("CAEA");
      expect(caePdf.qr).toMatchObject({ tipoCodAut: "E", codAut: Number(caeItem.cae) });

      // the panel: the representada's contingency with its CAEA and dates
      await page.goto(url(representada));
      const card = await page.locator("section", { hasText: "Contingencia (CAEA)" }).innerText();
      expect(card).toContain("Encendida");
      expect(card).toContain(`puntos de venta CAEA: ${CAEA_PTO_VTA}`);
      expect(card).toContain(caea.caea);
      expect(card).toContain(`${ddmmaaaa(caea.fchVigDesde)} al ${ddmmaaaa(caea.fchVigHasta)}`);
      expect(card).toContain(ddmmaaaa(caea.fchTopeInf));

      // from there to the vouchers still to be informed: only the CAEA one, badged
      await Promise.all([
        page.waitForURL(/estado=caea_pendiente/),
        page.click("text=Comprobantes CAEA pendientes de informar"),
      ]);
      const rows = page.locator("#comprobantes tbody tr");
      expect(await rows.count()).toBe(1);
      const row = await rows.first().innerText();
      expect(row).toContain("Pendiente de informar");
      expect(row).toContain("CAEA");
      expect(row).toContain(caea.caea);
      expect(row).toContain("PDF");
      // the whole list: the CAE voucher carries no CAEA badge
      await page.goto(url(`/panel/comprobantes?entorno=${env}`));
      expect(await page.locator("#comprobantes tbody tr").count()).toBe(2);
      const caeRow = await page
        .locator("#comprobantes tbody tr", { hasText: caeItem.cae! })
        .innerText();
      expect(caeRow).toContain("Autorizado");
      expect(caeRow).not.toContain("CAEA");
      // the filter offers the informing states
      await page.selectOption("#estado", "caea_rechazado");
      await Promise.all([page.waitForURL(/estado=caea_rechazado/), page.click("text=Filtrar")]);
      expect(await page.locator("main").innerText()).toContain(
        "No hay comprobantes con esos filtros.",
      );

      // an issuance asked for asynchronously, under the CAEA: listed with its result once ended
      const queued = await fetch(url("/api/wsfe/facturas"), {
        method: "POST",
        headers: {
          authorization: auth,
          "content-type": "application/json",
          prefer: "respond-async",
          "idempotency-key": "pedido-asincronico-1",
        },
        body: JSON.stringify(factura({ contingencia: "caea" })),
      });
      expect(queued.status, await queued.clone().text()).toBe(202);
      const emisionId = ((await queued.json()) as { id: string }).id;
      const ended = await eventually(
        "the asynchronous issuance to end",
        async () => {
          const shown = await http(stack, "GET", `/api/wsfe/facturas/${emisionId}`, auth);
          const body = shown.json<{ estado: string; respuesta?: { body: { cbteNro: number } } }>();
          return body.estado === "pendiente" ? undefined : body;
        },
        { timeoutMs: 30_000, intervalMs: 300 },
      );
      expect(ended.estado).toBe("autorizado");
      const asyncNro = ended.respuesta!.body.cbteNro;
      await page.goto(url(`/panel/comprobantes?entorno=${env}`));
      await Promise.all([
        page.waitForURL(/\/panel\/comprobantes\/emisiones\?entorno=homologacion$/),
        page.click("text=Emisiones asincrónicas"),
      ]);
      const emision = await page.locator("#emisiones tbody tr").innerText();
      expect(emision).toContain("Autorizada");
      expect(emision).toContain("pedido-asincronico-1");
      expect(emision).toContain(`00090-${String(asyncNro).padStart(8, "0")}`);
      expect(emision).toContain(`CAEA ${caea.caea}`);
      await page.selectOption("#estado", "pendiente");
      await Promise.all([page.waitForURL(/estado=pendiente/), page.click("text=Filtrar")]);
      expect(await page.locator("main").innerText()).toContain(
        "No hay emisiones asincrónicas con esos filtros.",
      );

      const problems = errors.take().map((found) => `before the visits: ${found}`);
      problems.push(
        ...(await auditPages(
          page,
          url,
          {
            representada,
            comprobantes: `/panel/comprobantes?entorno=${env}`,
            pendientes: `/panel/comprobantes?entorno=${env}&estado=caea_pendiente`,
            emisiones: `/panel/comprobantes/emisiones?entorno=${env}`,
          },
          errors,
        )),
      );
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
