import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { wsfe } from "@pasarela/contracts";
import { ticket } from "@pasarela/contracts";
import { loadConfig as loadPadronConfig, startPadron } from "@pasarela/padron";
import { createLogger } from "@pasarela/telemetry";
import {
  filesystemStore,
  loadConfig as loadPdfConfig,
  startPdf,
  type PdfStore,
} from "@pasarela/pdf";
import type { RunningService } from "@pasarela/service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomCuit, startQueryStack, type QueryStack, type Registered } from "./query-stack.js";

/**
 * Printed vouchers end to end in one process: vouchers issued through POST /api/wsfe/facturas
 * against the authority simulator, then printed by the pdf service through the edge. The PDF
 * is read back with poppler's pdftotext and its QR decoded from a rendering with pdftoppm and
 * zbarimg (Debian's poppler-utils and zbar-tools, installed by .ci/run).
 */

const ENV = "homologacion" as const;
const PTO_VTA = 3;
const DOLAR = "1050.25";
const PUBLIC_URL = "http://gateway.test";
const work = mkdtempSync(join(tmpdir(), "pdf-test-"));
const DAY_MS = 86_400_000;

type Issued = wsfe.FacturaHttpReply;
type Body = Record<string, unknown>;

/** Argentine amounts, written independently of the service: Intl with es-AR. */
const ar = (value: number, digits = 2) =>
  new Intl.NumberFormat("es-AR", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
const ddmmyyyy = (yyyymmdd: string) =>
  `${yyyymmdd.slice(6, 8)}/${yyyymmdd.slice(4, 6)}/${yyyymmdd.slice(0, 4)}`;
const today = (days = 0) =>
  new Date(Date.now() - 3 * 3_600_000 + days * DAY_MS)
    .toISOString()
    .slice(0, 10)
    .replaceAll("-", "");
/** label and amount as pdftotext -layout prints them: separated by spaces only */
const amountLine = (label: string, amount: number, symbol = "$") =>
  new RegExp(
    `${label.replace(/[()%.]/g, "\\$&")}:\\s+${symbol.replace("$", "\\$")} ${ar(amount).replaceAll(".", "\\.")}`,
  );

let fileCounter = 0;
function toFile(pdf: Buffer): string {
  const file = join(work, `doc-${(fileCounter += 1)}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

/** The document's text, page by page (pdftotext separates pages with a form feed). */
function pagesOf(pdf: Buffer): string[] {
  const text = execFileSync("pdftotext", ["-layout", toFile(pdf), "-"], { encoding: "utf8" });
  return text.split("\f").filter((page) => page.trim() !== "");
}

/** The QR of the first page, decoded from a 150 dpi rendering. */
function qrOf(pdf: Buffer): string {
  const file = toFile(pdf);
  execFileSync("pdftoppm", ["-png", "-r", "150", "-f", "1", "-l", "1", "-singlefile", file, file]);
  return execFileSync("zbarimg", ["--raw", "-q", `${file}.png`], {
    encoding: "utf8",
    // zbarimg complains on stderr when there is no D-Bus; the decoded text is on stdout
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();
}

/** The RG 4892 QR, built here from the issuance answer, not by the gateway's code. */
function expectedQr(issued: Issued, cuit: string, receptor?: { docTipo: number; docNro: string }) {
  const fecha = `${issued.cbteFch.slice(0, 4)}-${issued.cbteFch.slice(4, 6)}-${issued.cbteFch.slice(6, 8)}`;
  return {
    ver: 1,
    fecha,
    cuit: Number(cuit),
    ptoVta: issued.ptoVta,
    tipoCmp: issued.cbteTipo,
    nroCmp: issued.cbteNro,
    importe: issued.impTotal,
    moneda: issued.moneda.id,
    ctz: issued.moneda.cotizacion,
    ...(receptor ? { tipoDocRec: receptor.docTipo, nroDocRec: Number(receptor.docNro) } : {}),
    tipoCodAut: "E",
    codAut: Number(issued.cae),
  };
}

function decodeQrUrl(url: string): unknown {
  expect(url.startsWith("https://www.afip.gob.ar/fe/qr/?p=")).toBe(true);
  const p = url.slice("https://www.afip.gob.ar/fe/qr/?p=".length);
  // standard base64 with its padding, not the URL-safe alphabet
  expect(p).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
  return JSON.parse(Buffer.from(p, "base64").toString("utf8"));
}

describe("printed vouchers: POST /api/wsfe/comprobantes/pdf, links and the pdf service", () => {
  let stack: QueryStack;
  let pdfService: RunningService<object>;
  let padronService: { stop: () => Promise<void> };
  let issuer: Registered;
  let auth: string;
  let accountId: string;
  let strangerAuth: string;
  let clockShiftMs = 0;
  const storeDir = join(work, "store");
  const good = filesystemStore(storeDir);
  // a store under a regular file: every read and write fails, as on an unwritable volume
  const blocker = join(work, "not-a-directory");
  const broken = filesystemStore(join(blocker, "pdf"));
  let store: PdfStore = good;
  const receptorA = randomCuit("30");
  const toResponsableInscripto = { docTipo: 80, docNro: receptorA, condicionIvaReceptorId: 1 };
  const toConsumidorFinal = { docTipo: 99, docNro: "0", condicionIvaReceptorId: 5 };

  const base = (extra: Body) => ({
    environment: ENV,
    representada: issuer.cuit,
    ptoVta: PTO_VTA,
    concepto: 1,
    ...extra,
  });
  const key = (issued: Pick<Issued, "ptoVta" | "cbteTipo" | "cbteNro">) => ({
    environment: ENV,
    representada: issuer.cuit,
    ptoVta: issued.ptoVta,
    cbteTipo: issued.cbteTipo,
    cbteNro: issued.cbteNro,
  });

  async function authorized(body: Body): Promise<Issued> {
    const response = await stack.post("/api/wsfe/facturas", auth, body);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Issued>();
  }
  async function print(payload: Body, authorization = auth) {
    const response = await stack.post("/api/wsfe/comprobantes/pdf", authorization, payload);
    return { response, pdf: response.rawPayload };
  }
  async function printed(issued: Issued, copia?: string): Promise<Buffer> {
    const { response, pdf } = await print({ ...key(issued), ...(copia ? { copia } : {}) });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toBe("application/pdf");
    return pdf;
  }
  const open = (path: string) => stack.edge.app.inject({ method: "GET", url: path });

  beforeAll(async () => {
    writeFileSync(blocker, "a file where the store expects a directory");
    mkdirSync(storeDir, { recursive: true });
    stack = await startQueryStack();
    pdfService = await startPdf(
      loadPdfConfig({
        NATS_URL: stack.infra.natsUrl,
        NATS_PREFIX: stack.infra.prefix,
        DATABASE_URL: stack.infra.databaseUrl,
        LOG_LEVEL: "silent",
        PDF_PUBLIC_URL: PUBLIC_URL,
      }),
      {
        logger: createLogger({ service: "pdf", level: "silent" }),
        now: () => new Date(Date.now() + clockShiftMs),
        // the registry is set up half-way through a test: no answer is kept
        registryCacheMs: { miss: 0 },
        store: {
          read: (k) => store.read(k),
          write: (k, bytes) => store.write(k, bytes),
        },
      },
    );
    padronService = await startPadron(
      loadPadronConfig({
        NATS_URL: stack.infra.natsUrl,
        NATS_PREFIX: stack.infra.prefix,
        LOG_LEVEL: "silent",
        PADRON_CONSTANCIA_URL_HOMOLOGACION: stack.sim.endpoints(ENV).constancia,
        AUTHORITY_TIMEOUT_MS: "2000",
      }),
      createLogger({ service: "padron", level: "silent" }),
    );
    const account = await stack.newKey();
    auth = account.authorization;
    accountId = account.accountId;
    strangerAuth = (await stack.newKey()).authorization;
    issuer = await stack.register({
      accountId,
      environment: ENV,
      ptoVta: PTO_VTA,
      delegate: ["wsfe"],
      pos: [{ ptoVta: PTO_VTA, service: "wsfe" }],
    });
    await stack.control.setCotizacion(ENV, { monId: "DOL", cotiz: Number(DOLAR) });
    const perfil = await stack.client.request(ticket.perfilSet, {
      representadaId: issuer.representadaId,
      razonSocial: "Ñandú Diseño S.R.L.",
      domicilioComercial: "Corrientes 1234 5° «B», CABA",
      condicionIva: "IVA Responsable Inscripto",
      ingresosBrutos: "901-123456-7",
      inicioActividades: "20190301",
    });
    expect(perfil.ok).toBe(true);
  }, 60_000);

  afterAll(async () => {
    await pdfService?.stop();
    await padronService?.stop();
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** What every printed voucher shows: copy, class, code, issuer, number, CAE, footer. */
  function expectCommon(page: string, issued: Issued, letra: string, nombre: string) {
    expect(page).toContain("ORIGINAL");
    expect(page).toMatch(new RegExp(`\\b${letra}\\b`));
    expect(page).toContain(`COD. ${String(issued.cbteTipo).padStart(2, "0")}`);
    expect(page).toContain(nombre);
    expect(page).toContain("Razón Social: Ñandú Diseño S.R.L.");
    expect(page).toContain("Domicilio Comercial: Corrientes 1234 5° «B», CABA");
    expect(page).toContain("Condición frente al IVA: IVA Responsable Inscripto");
    expect(page).toContain(`Punto de Venta: ${String(PTO_VTA).padStart(5, "0")}`);
    expect(page).toContain(`Comp. Nro: ${String(issued.cbteNro).padStart(8, "0")}`);
    expect(page).toContain(`Fecha de Emisión: ${ddmmyyyy(issued.cbteFch)}`);
    expect(page).toContain(`CUIT: ${issuer.cuit}`);
    expect(page).toContain("Ingresos Brutos: 901-123456-7");
    expect(page).toContain("Fecha de Inicio de Actividades: 01/03/2019");
    expect(page).toContain("Condición de venta:");
    expect(page).toContain("Comprobante Autorizado");
    expect(page).toContain(`CAE N°: ${issued.cae}`);
    expect(page).toContain(`Fecha de Vto. de CAE: ${ddmmyyyy(issued.caeVencimiento)}`);
  }

  it("a Factura A: rates per line, net, VAT per rate, total, and the RG 4892 QR", async () => {
    const issued = await authorized(
      base({
        cbteTipo: 1,
        concepto: 2,
        fchServDesde: today(-10),
        fchServHasta: today(),
        fchVtoPago: today(15),
        ...toResponsableInscripto,
        items: [
          {
            codigo: "TOR-001",
            descripcion: "Tornillos ¿acero? x 100",
            cantidad: 10,
            precioUnitario: "1250.50",
            alicuotaIva: 21,
            unidadMedida: "caja",
          },
          {
            descripcion: "Libros técnicos",
            cantidad: "2",
            precioUnitario: 8000,
            alicuotaIva: 10.5,
          },
        ],
      }),
    );
    const pdf = await printed(issued);
    const pages = pagesOf(pdf);
    expect(pages).toHaveLength(1);
    const [page = ""] = pages;
    expectCommon(page, issued, "A", "Factura");
    expect(page).toContain(`CUIT: ${receptorA}`);
    expect(page).toContain("Condición frente al IVA: IVA Responsable Inscripto");
    expect(page).toContain(`Período Facturado Desde: ${ddmmyyyy(today(-10))}`);
    expect(page).toContain(`Hasta: ${ddmmyyyy(today())}`);
    expect(page).toContain(`Fecha de Vto. para el pago: ${ddmmyyyy(today(15))}`);
    for (const header of ["Código", "Producto / Servicio", "Cantidad", "U. Medida"]) {
      expect(page).toContain(header);
    }
    expect(page).toContain("Alíc. IVA");
    expect(page).toContain("Subtotal c/IVA");
    expect(page).toMatch(
      /TOR-001\s+Tornillos ¿acero\? x 100\s+10,00\s+caja\s+1\.250,50\s+0,00\s+12\.505,00\s+21%\s+15\.131,05/,
    );
    expect(page).toMatch(
      /Libros técnicos\s+2,00\s+8\.000,00\s+0,00\s+16\.000,00\s+10,5%\s+17\.680,00/,
    );
    expect(issued).toMatchObject({ impNeto: 28505, impIVA: 4306.05, impTotal: 32811.05 });
    expect(page).toMatch(amountLine("Importe Neto Gravado", issued.impNeto));
    expect(page).toMatch(amountLine("IVA 21%", 2626.05));
    expect(page).toMatch(amountLine("IVA 10,5%", 1680));
    expect(page).toMatch(amountLine("Importe Otros Tributos", 0));
    expect(page).toMatch(amountLine("Importe Total", issued.impTotal));
    expect(page).toContain("Pág. 1/1");
    const qr = qrOf(pdf);
    expect(qr).toBe(issued.qr);
    expect(decodeQrUrl(qr)).toEqual(
      expectedQr(issued, issuer.cuit, { docTipo: 80, docNro: receptorA }),
    );

    // a credit note against it names the voucher it adjusts
    const nota = await authorized(
      base({
        cbteTipo: 3,
        ...toResponsableInscripto,
        comprobantesAsociados: [{ cbteTipo: 1, ptoVta: PTO_VTA, cbteNro: issued.cbteNro }],
        items: [{ descripcion: "Devolución", cantidad: 1, precioUnitario: "100", alicuotaIva: 21 }],
      }),
    );
    const notaPdf = await printed(nota);
    const [notaPage = ""] = pagesOf(notaPdf);
    expectCommon(notaPage, nota, "A", "Nota de Crédito");
    expect(notaPage).toContain(
      `Comprobante Asociado: Factura A N° 00003-${String(issued.cbteNro).padStart(8, "0")}`,
    );
    expect(notaPage).toMatch(amountLine("Importe Total", 121));
    expect(decodeQrUrl(qrOf(notaPdf))).toEqual(
      expectedQr(nota, issuer.cuit, { docTipo: 80, docNro: receptorA }),
    );
  });

  it("a Factura B to a final consumer: the Ley 27.743 lines, no document in the QR", async () => {
    const issued = await authorized(
      base({
        cbteTipo: 6,
        ...toConsumidorFinal,
        items: [
          {
            descripcion: "Yerba mate 1 kg",
            cantidad: 3,
            precioUnitario: "2479.34",
            alicuotaIva: 21,
            unidadMedida: "unidad",
          },
        ],
      }),
    );
    const pdf = await printed(issued);
    const [page = ""] = pagesOf(pdf);
    expectCommon(page, issued, "B", "Factura");
    expect(page).toContain("Doc. (Otro): Consumidor Final sin identificar");
    expect(page).toContain("Condición frente al IVA: Consumidor Final");
    expect(page).not.toContain("Subtotal c/IVA");
    expect(page).toMatch(/Yerba mate 1 kg\s+3,00\s+unidad\s+2\.479,34\s+0,00\s+7\.438,02/);
    expect(page).toMatch(amountLine("Importe Neto Gravado", issued.impNeto));
    expect(page).toMatch(amountLine("IVA 21%", issued.impIVA));
    expect(page).toMatch(amountLine("Importe Total", issued.impTotal));
    expect(page).toContain("Régimen de Transparencia Fiscal al Consumidor (Ley 27.743)");
    expect(page).toContain(`IVA Contenido: $ ${ar(issued.impIVA)}`);
    expect(page).toContain("Otros Impuestos Nacionales Indirectos: $ 0,00");
    expect(decodeQrUrl(qrOf(pdf))).toEqual(expectedQr(issued, issuer.cuit));
  });

  it("a Factura C: a subtotal and no VAT lines", async () => {
    const issued = await authorized(
      base({
        cbteTipo: 11,
        ...toConsumidorFinal,
        items: [
          {
            descripcion: "Clase de guitarra",
            cantidad: 4,
            precioUnitario: "5500",
            alicuotaIva: 0,
            bonificacion: "1000",
          },
        ],
      }),
    );
    const pdf = await printed(issued);
    const [page = ""] = pagesOf(pdf);
    expectCommon(page, issued, "C", "Factura");
    expect(page).toMatch(/Clase de guitarra\s+4,00\s+5\.500,00\s+1\.000,00\s+21\.000,00/);
    expect(page).toMatch(amountLine("Subtotal", 21000));
    expect(page).not.toMatch(/IVA \d/);
    expect(page).not.toContain("Ley 27.743");
    expect(page).toMatch(amountLine("Importe Total", 21000));
    expect(decodeQrUrl(qrOf(pdf))).toEqual(expectedQr(issued, issuer.cuit));
  });

  it("an FCE A: its name, the CBU, the transfer option and the payment due date", async () => {
    const issued = await authorized(
      base({
        cbteTipo: 201,
        fchVtoPago: today(30),
        ...toResponsableInscripto,
        fce: { cbu: "0170099220000067797370", alias: "empresa.cobros", opcionTransferencia: "SCA" },
        items: [
          {
            descripcion: "Acero laminado",
            cantidad: "1.5",
            precioUnitario: "2000000",
            alicuotaIva: 21,
          },
        ],
      }),
    );
    const pdf = await printed(issued);
    const [page = ""] = pagesOf(pdf);
    expectCommon(page, issued, "A", "Factura de Crédito Electrónica MiPyME (FCE)");
    expect(page).toContain("CBU del Emisor: 0170099220000067797370");
    expect(page).toContain("Alias CBU: empresa.cobros");
    expect(page).toContain("Opción de Transferencia: SCA");
    expect(page).toContain(`Fecha de Vto. para el pago: ${ddmmyyyy(today(30))}`);
    expect(page).toContain("Condición de venta: Cuenta Corriente");
    expect(page).toMatch(amountLine("Importe Total", 3630000));
    expect(decodeQrUrl(qrOf(pdf))).toEqual(
      expectedQr(issued, issuer.cuit, { docTipo: 80, docNro: receptorA }),
    );
  });

  it("a voucher in dollars: currency, rate and amounts in the currency; the rate in the QR", async () => {
    const issued = await authorized(
      base({
        cbteTipo: 1,
        ...toResponsableInscripto,
        moneda: { id: "DOL" },
        items: [
          { descripcion: "Licencia anual", cantidad: 1, precioUnitario: "1200", alicuotaIva: 21 },
        ],
      }),
    );
    expect(issued.moneda.cotizacion).toBe(Number(DOLAR));
    const pdf = await printed(issued);
    const [page = ""] = pagesOf(pdf);
    expectCommon(page, issued, "A", "Factura");
    expect(page).toMatch(amountLine("Importe Total", 1452, "DOL"));
    expect(page).toContain("Moneda: Dólar Estadounidense (DOL)");
    expect(page).toContain(`Tipo de cambio: ${ar(Number(DOLAR))}`);
    expect(page).toContain(`Importe Total en Pesos: $ ${ar(1452 * 1050.25)}`);
    expect(decodeQrUrl(qrOf(pdf))).toEqual(
      expectedQr(issued, issuer.cuit, { docTipo: 80, docNro: receptorA }),
    );
  });

  it("200 items flow onto more pages: header on each, totals on the last, page x/y", async () => {
    const items = Array.from({ length: 200 }, (_, i) => ({
      codigo: `ART-${String(i + 1).padStart(3, "0")}`,
      descripcion: `Artículo número ${i + 1}`,
      cantidad: 1,
      precioUnitario: `${i + 1}.25`,
      alicuotaIva: 21,
    }));
    const issued = await authorized(base({ cbteTipo: 6, ...toConsumidorFinal, items }));
    const pdf = await printed(issued);
    const pages = pagesOf(pdf);
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, index) => {
      expectCommon(page, issued, "B", "Factura");
      expect(page).toContain(`Pág. ${index + 1}/${pages.length}`);
      expect(page.includes("Importe Total")).toBe(index === pages.length - 1);
    });
    const all = pages.join("\n");
    items.forEach((item, i) => {
      const price = ar(i + 1.25).replaceAll(".", "\\.");
      expect(all).toMatch(
        new RegExp(
          `${item.codigo}\\s+${item.descripcion}\\s+1,00\\s+${price}\\s+0,00\\s+${price}\\n`,
        ),
      );
    });
    // Σ (i + 1.25) for i in 0..199 = 20100 + 50 = 20150
    expect(issued.impNeto).toBe(20150);
    expect(pages.at(-1)).toMatch(amountLine("Importe Total", issued.impTotal));
    expect(decodeQrUrl(qrOf(pdf))).toEqual(expectedQr(issued, issuer.cuit));
  });

  it("todas: original, duplicado and triplicado, one page each; each copy is stored once and served byte for byte", async () => {
    const issued = await authorized(
      base({
        cbteTipo: 6,
        ...toConsumidorFinal,
        items: [{ descripcion: "Café", cantidad: 1, precioUnitario: "100", alicuotaIva: 21 }],
      }),
    );
    const pages = pagesOf(await printed(issued, "todas"));
    expect(pages).toHaveLength(3);
    expect(pages.map((p) => /(ORIGINAL|DUPLICADO|TRIPLICADO)/.exec(p)?.[1])).toEqual([
      "ORIGINAL",
      "DUPLICADO",
      "TRIPLICADO",
    ]);
    for (const page of pages) expect(page).toContain("Pág. 1/1");

    const first = await printed(issued, "duplicado");
    expect(pagesOf(first)[0]).toContain("DUPLICADO");
    const again = await printed(issued, "duplicado");
    expect(again.equals(first)).toBe(true);
    // a stored file that went missing is rendered again, identical
    const stored = readdirSync(join(storeDir, "v2", accountId, ENV, issuer.cuit, "3", "6"));
    expect(stored).toContain(`${issued.cbteNro}-duplicado.pdf`);
    unlinkSync(
      join(
        storeDir,
        "v2",
        accountId,
        ENV,
        issuer.cuit,
        "3",
        "6",
        `${issued.cbteNro}-duplicado.pdf`,
      ),
    );
    const rerendered = await printed(issued, "duplicado");
    expect(rerendered.equals(first)).toBe(true);

    const { response } = await print(key(issued));
    expect(response.headers["content-disposition"]).toBe(
      `attachment; filename="${issuer.cuit}_006_00003-${String(issued.cbteNro).padStart(8, "0")}.pdf"`,
    );
  });

  describe("what cannot be printed", () => {
    let issued: Issued;
    beforeAll(async () => {
      issued = await authorized(
        base({
          cbteTipo: 6,
          ...toConsumidorFinal,
          items: [{ descripcion: "Té", cantidad: 1, precioUnitario: "10", alicuotaIva: 21 }],
        }),
      );
    });

    const notFound = { error: "Comprobante no encontrado", code: "COMPROBANTE_NOT_FOUND" };

    it.each([
      ["environment", { environment: "produccion" }],
      ["representada", { representada: "20111111112" }],
      ["ptoVta", { ptoVta: PTO_VTA + 1 }],
      ["cbteTipo", { cbteTipo: 11 }],
      ["cbteNro", { cbteNro: 99_999 }],
    ])("404 when %s does not match", async (_field, wrong) => {
      const { response } = await print({ ...key(issued), ...wrong });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
      const link = await stack.post("/api/wsfe/comprobantes/pdf-link", auth, {
        ...key(issued),
        ...wrong,
      });
      expect(link.statusCode).toBe(404);
    });

    it("404, the same answer, for another account's voucher, and no link to it", async () => {
      const { response } = await print(key(issued), strangerAuth);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(notFound);
      const link = await stack.post("/api/wsfe/comprobantes/pdf-link", strangerAuth, key(issued));
      expect(link.statusCode).toBe(404);
      expect(link.json()).toEqual(notFound);
    });

    it("400 naming a missing field or an unknown copy", async () => {
      const { cbteNro: _, ...withoutNumber } = key(issued);
      const missing = await print(withoutNumber);
      expect(missing.response.statusCode).toBe(400);
      expect(missing.response.json<{ error: string }>().error).toContain("cbteNro");
      const copy = await print({ ...key(issued), copia: "cuadruplicado" });
      expect(copy.response.statusCode).toBe(400);
      expect(copy.response.json<{ error: string }>().error).toContain("copia");
    });

    it("422 for a voucher the authority rejected", async () => {
      // dated before the series' last voucher: the authority rejects it (10016)
      const response = await stack.post(
        "/api/wsfe/facturas",
        auth,
        base({
          cbteTipo: 6,
          cbteFch: today(-2),
          ...toConsumidorFinal,
          items: [{ descripcion: "x", cantidad: 1, precioUnitario: 10, alicuotaIva: 21 }],
        }),
      );
      expect(response.statusCode, response.body).toBe(422);
      const { cbteNro } = response.json<{ details: { cbteNro: number } }>().details;
      const rejected = await print({ ...key(issued), cbteNro });
      expect(rejected.response.statusCode).toBe(422);
      expect(rejected.response.json()).toEqual({
        error: "no existe representación impresa de un comprobante rechazado",
        code: "COMPROBANTE_RECHAZADO",
      });
      const link = await stack.post("/api/wsfe/comprobantes/pdf-link", auth, {
        ...key(issued),
        cbteNro,
      });
      expect(link.statusCode).toBe(422);
    });

    it("502 while the store cannot be written or read; the same request succeeds afterwards", async () => {
      store = broken;
      try {
        const { response } = await print(key(issued));
        expect(response.statusCode).toBe(502);
        expect(response.json()).toEqual({
          error:
            "No se pudo guardar o leer el PDF del comprobante; reintentá más tarde sin cambios",
          code: "PDF_STORAGE_FAILED",
        });
      } finally {
        store = good;
      }
      const retried = await print(key(issued));
      expect(retried.response.statusCode).toBe(200);
    });
  });

  describe("shareable links", () => {
    let issued: Issued;
    beforeAll(async () => {
      issued = await authorized(
        base({
          cbteTipo: 11,
          ...toConsumidorFinal,
          items: [{ descripcion: "Mate", cantidad: 1, precioUnitario: "300", alicuotaIva: 0 }],
        }),
      );
    });

    it("the issuance answer carries a link that works without an API key", async () => {
      expect(issued.pdfUrl).toMatch(
        new RegExp(`^${PUBLIC_URL}/comprobantes/[A-Za-z0-9_-]{43}\\.pdf$`),
      );
      const response = await open(new URL(issued.pdfUrl!).pathname);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("application/pdf");
      expect(response.headers["content-disposition"]).toBe(
        `inline; filename="${issuer.cuit}_011_00003-${String(issued.cbteNro).padStart(8, "0")}.pdf"`,
      );
      expect(response.rawPayload.equals(await printed(issued))).toBe(true);
    });

    it("a new link expires after 30 days; an altered or unknown token is refused", async () => {
      const created = await stack.post("/api/wsfe/comprobantes/pdf-link", auth, key(issued));
      expect(created.statusCode, created.body).toBe(200);
      const link = created.json<{ url: string; token: string; expiresAt: string }>();
      expect(link.url).toBe(`${PUBLIC_URL}/comprobantes/${link.token}.pdf`);
      const ttl = Date.parse(link.expiresAt) - Date.now();
      expect(ttl).toBeGreaterThan(29 * DAY_MS);
      expect(ttl).toBeLessThanOrEqual(30 * DAY_MS);
      const path = new URL(link.url).pathname;
      expect((await open(path)).statusCode).toBe(200);

      const gone = {
        error: "El link del comprobante no existe o venció",
        code: "PDF_LINK_NOT_FOUND",
      };
      const last = link.token.at(-1) === "A" ? "B" : "A";
      for (const tampered of [
        `/comprobantes/${link.token.slice(0, -1)}${last}.pdf`,
        `/comprobantes/${link.token}x.pdf`,
        `/comprobantes/${link.token}`,
        "/comprobantes/..%2F..%2Fetc%2Fpasswd.pdf",
      ]) {
        const response = await open(tampered);
        expect(response.statusCode, tampered).toBe(404);
        expect(response.json()).toEqual(gone);
      }

      clockShiftMs = 30 * DAY_MS + 60_000;
      try {
        const expired = await open(path);
        expect(expired.statusCode).toBe(404);
        expect(expired.json()).toEqual(gone);
      } finally {
        clockShiftMs = 0;
      }
      expect((await open(path)).statusCode).toBe(200);
    });
  });

  it("prints without a profile, completes one from the registry's constancia, and refuses a logo that does not decode", async () => {
    const bare = await stack.register({
      accountId,
      environment: ENV,
      ptoVta: PTO_VTA,
      delegate: ["wsfe"],
      pos: [{ ptoVta: PTO_VTA, service: "wsfe" }],
    });
    const body = {
      environment: ENV,
      representada: bare.cuit,
      ptoVta: PTO_VTA,
      concepto: 1,
      cbteTipo: 11,
      ...toConsumidorFinal,
      items: [{ descripcion: "Sin perfil", cantidad: 1, precioUnitario: "50", alicuotaIva: 0 }],
    };
    const ref = { environment: ENV, representada: bare.cuit, ptoVta: PTO_VTA, cbteTipo: 11 };
    // no profile, and the constancia service is not delegated: what the voucher holds
    const issued = await authorized(body);
    const { response, pdf } = await print({ ...ref, cbteNro: issued.cbteNro });
    expect(response.statusCode).toBe(200);
    const [page = ""] = pagesOf(pdf);
    expect(page).toContain(`CUIT: ${bare.cuit}`);
    expect(page).toContain(`CAE N°: ${issued.cae}`);
    expect(page).toMatch(/Razón Social:\s*\n/);

    // the registry fills what the profile lacks; the profile's own values win
    await stack.control.setPerson(ENV, {
      cuit: bare.cuit,
      apellido: "GÓMEZ",
      nombre: "ÑAHUEL",
      condicionIva: "monotributo",
      domicilios: [
        {
          tipoDomicilio: "FISCAL",
          direccion: "San Martín 50",
          localidad: "Rosario",
          codigoPostal: "2000",
          idProvincia: 12,
          descripcionProvincia: "SANTA FE",
        },
      ],
    });
    await stack.control.delegate(ENV, {
      cuit: bare.cuit,
      alias: bare.alias,
      service: "ws_sr_constancia_inscripcion",
    });
    const profile = await stack.client.request(ticket.perfilSet, {
      representadaId: bare.representadaId,
      ingresosBrutos: "Exento",
    });
    expect(profile.ok).toBe(true);
    const fromRegistry = await authorized(body);
    const registryPdf = await print({ ...ref, cbteNro: fromRegistry.cbteNro });
    expect(registryPdf.response.statusCode).toBe(200);
    const [registryPage = ""] = pagesOf(registryPdf.pdf);
    expect(registryPage).toContain("Razón Social: GÓMEZ ÑAHUEL");
    // a long address wraps onto a second line
    expect(registryPage).toMatch(
      /Domicilio Comercial: San Martín 50, Rosario \(2000\),\s+SANTA FE/,
    );
    expect(registryPage).toContain("Condición frente al IVA: Responsable Monotributo");
    expect(registryPage).toContain("Ingresos Brutos: Exento");

    // a PNG signature followed by garbage is refused, naming the logo: vouchers keep printing
    const logo = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from("not an image"),
    ]);
    const set = await stack.client.request(ticket.perfilSet, {
      representadaId: bare.representadaId,
      logo: { mediaType: "image/png", data: logo.toString("base64") },
    });
    expect(!set.ok && set.error).toMatchObject({
      code: "LOGO_INVALID",
      details: { field: "logo" },
    });
    const next = await authorized(body);
    const printed = await print({ ...ref, cbteNro: next.cbteNro });
    expect(printed.response.statusCode).toBe(200);
  });
});
