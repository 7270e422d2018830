import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
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
import { startTestSmtp, type TestSmtp } from "../support/smtp.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";
import { eventually } from "../support/wait.js";

const env = "homologacion" as const;
const PTO_VTA = 7;
/** Only the signature a PNG starts with: what a damaged upload left in profiles before. */
const PNG_SIGNATURE_ONLY = Buffer.from("iVBORw0KGgo=", "base64");

/**
 * Printed vouchers with every service as its own process: the profile set with the operator
 * CLI, a voucher issued through the edge, its `pdfUrl` opened without a key and the same
 * document printed with one, read back with pdftotext.
 */
describe("printed vouchers end to end", () => {
  let stack: E2EStack;
  let dir: Scratch;
  let smtp: TestSmtp;
  let sql: postgres.Sql;
  let account: Account;
  let issuer: Registered;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    stack = await startE2EStack({
      env: { SMTP_URL: smtp.url, MAIL_FROM: "comprobantes@pasarela.test" },
    });
    sql = postgres(stack.env.DATABASE_URL!, { max: 2, onnotice: () => {} });
    dir = scratch();
    account = await newAccount(stack, "Imprenta");
    issuer = await registerWsfeIssuer(stack, dir, account.accountId, env, PTO_VTA);
  });

  afterAll(async () => {
    await sql?.end();
    await stack?.teardown();
    await smtp?.stop();
    dir?.remove();
  });

  const facturaC = (extra: Record<string, unknown> = {}) => ({
    environment: env,
    representada: issuer.cuit,
    ptoVta: PTO_VTA,
    cbteTipo: 11,
    concepto: 1,
    docTipo: 99,
    docNro: "0",
    condicionIvaReceptorId: 5,
    items: [{ descripcion: "Lápiz", cantidad: 1, precioUnitario: "800", alicuotaIva: 0 }],
    ...extra,
  });
  async function issue(extra: Record<string, unknown> = {}): Promise<number> {
    const issued = await http(stack, "POST", "/api/wsfe/facturas", account.rw, facturaC(extra));
    expect(issued.status, issued.text).toBe(200);
    return issued.json<{ cbteNro: number }>().cbteNro;
  }
  async function print(cbteNro: number, copia?: string): Promise<Buffer> {
    const printed = await fetch(`${stack.edgeUrl}/api/wsfe/comprobantes/pdf`, {
      method: "POST",
      headers: { authorization: account.ro, "content-type": "application/json" },
      body: JSON.stringify({
        environment: env,
        representada: issuer.cuit,
        ptoVta: PTO_VTA,
        cbteTipo: 11,
        cbteNro,
        ...(copia ? { copia } : {}),
      }),
    });
    expect(printed.status, await printed.clone().text()).toBe(200);
    return Buffer.from(await printed.arrayBuffer());
  }
  const textOf = (pdf: Buffer) => {
    const file = dir.file(`c-${randomUUID()}.pdf`, "");
    writeFileSync(file, pdf);
    return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  };
  /** The issuer's lines of every copy in the document, as pdftotext reads them. */
  const issuerBlocks = (pdf: Buffer) =>
    textOf(pdf)
      .split("\f")
      .filter((page) => page.trim() !== "")
      .map((page) =>
        page
          .split("\n")
          .filter((line) => /Razón Social|Domicilio Comercial|Ingresos Brutos|Inicio de/.test(line))
          .join("\n"),
      );
  const profile = (...flags: string[]) =>
    stack.admin("representada", "profile", "--representada", issuer.representadaId, ...flags);
  /** Files printed so far are removed: the next print renders again. */
  const forgetPrints = () => rmSync(join(stack.env.PDF_STORAGE_DIR!, "v2"), { recursive: true });

  it("issues, links and prints with the profile set by the CLI", async () => {
    const profile = await stack.admin<{ perfil: { razonSocial: string } }>(
      "representada",
      "profile",
      "--representada",
      issuer.representadaId,
      "--razon-social",
      "Librería Ñandú",
      "--condicion-iva",
      "Responsable Monotributo",
    );
    expect(profile.perfil.razonSocial).toBe("Librería Ñandú");

    const issued = await http(stack, "POST", "/api/wsfe/facturas", account.rw, {
      environment: env,
      representada: issuer.cuit,
      ptoVta: PTO_VTA,
      cbteTipo: 11,
      concepto: 1,
      docTipo: 99,
      docNro: "0",
      condicionIvaReceptorId: 5,
      items: [{ descripcion: "Cuaderno", cantidad: 2, precioUnitario: "1500", alicuotaIva: 0 }],
    });
    expect(issued.status, issued.text).toBe(200);
    const { cbteNro, cae, pdfUrl } = issued.json<{
      cbteNro: number;
      cae: string;
      pdfUrl: string;
    }>();
    expect(pdfUrl.startsWith(`${stack.edgeUrl}/comprobantes/`)).toBe(true);

    const linked = await fetch(pdfUrl);
    expect(linked.status).toBe(200);
    expect(linked.headers.get("content-type")).toBe("application/pdf");
    const fromLink = Buffer.from(await linked.arrayBuffer());

    const printed = await fetch(`${stack.edgeUrl}/api/wsfe/comprobantes/pdf`, {
      method: "POST",
      headers: { authorization: account.ro, "content-type": "application/json" },
      body: JSON.stringify({
        environment: env,
        representada: issuer.cuit,
        ptoVta: PTO_VTA,
        cbteTipo: 11,
        cbteNro,
      }),
    });
    expect(printed.status).toBe(200);
    const document = Buffer.from(await printed.arrayBuffer());
    expect(document.equals(fromLink)).toBe(true);

    const file = dir.file("comprobante.pdf", "");
    writeFileSync(file, document);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain("Razón Social: Librería Ñandú");
    expect(text).toContain("Condición frente al IVA: Responsable Monotributo");
    expect(text).toContain(`CAE N°: ${cae}`);
    expect(text).toMatch(/Importe Total:\s+\$ 3\.000,00/);

    const unknown = await fetch(`${stack.edgeUrl}/comprobantes/${"A".repeat(43)}.pdf`);
    expect(unknown.status).toBe(404);
  });

  it("prints every copy and re-render of a voucher with the issuer it was issued with", async () => {
    await profile(
      "--razon-social",
      "Librería Ñandú",
      "--domicilio",
      "Mitre 100, Salta",
      "--iibb",
      "901-1",
    );
    const cbteNro = await issue();
    const original = await print(cbteNro);
    const [issued] = issuerBlocks(original);
    expect(issued).toContain("Razón Social: Librería Ñandú");
    expect(issued).toContain("Domicilio Comercial: Mitre 100, Salta");

    await profile("--razon-social", "Papelera del Sur", "--domicilio", "Belgrano 9, Jujuy");
    const duplicado = await print(cbteNro, "duplicado");
    const todas = await print(cbteNro, "todas");
    forgetPrints();
    const again = await print(cbteNro);
    expect(again.equals(original)).toBe(true);
    const blocks = [...issuerBlocks(duplicado), ...issuerBlocks(todas), ...issuerBlocks(again)];
    expect(blocks).toHaveLength(5);
    for (const block of blocks) expect(block).toBe(issued);

    // issued after the change: the new profile, even when printed after another change
    const later = await issue();
    await profile("--iibb", "902-2");
    const [laterBlock] = issuerBlocks(await print(later));
    expect(laterBlock).toContain("Razón Social: Papelera del Sur");
    expect(laterBlock).toContain("Domicilio Comercial: Belgrano 9, Jujuy");
    expect(laterBlock).toContain("Ingresos Brutos: 901-1");
  });

  it("fixes the profile of a voucher issued before vouchers kept it at its first print", async () => {
    const cbteNro = await issue();
    // as stored before: the voucher holds no issuer
    const cleared = await sql`
      update wsfe.comprobantes set request = request - 'emisor'
      where account_id = ${account.accountId} and cuit = ${issuer.cuit}
        and pto_vta = ${PTO_VTA} and cbte_tipo = 11 and cbte_nro = ${cbteNro}
    `;
    expect(cleared.count).toBe(1);
    const [first] = issuerBlocks(await print(cbteNro));
    expect(first).toContain("Razón Social: Papelera del Sur");
    await profile("--razon-social", "Tercera Razón");
    for (const block of issuerBlocks(await print(cbteNro, "todas"))) expect(block).toBe(first);
  });

  it("prints and mails a voucher whose profile holds a logo that does not decode", async () => {
    // stored before logos were decoded at upload: straight into ticket's tables
    await sql`
      update ticket.representada_perfiles
      set logo = ${PNG_SIGNATURE_ONLY}, logo_media_type = 'image/png',
          logo_sha256 = encode(sha256(${PNG_SIGNATURE_ONLY}), 'hex')
      where representada_id = ${issuer.representadaId}
    `;
    await sql`
      insert into ticket.representada_logos (representada_id, sha256, media_type, data)
      values (${issuer.representadaId}, encode(sha256(${PNG_SIGNATURE_ONLY}), 'hex'),
              'image/png', ${PNG_SIGNATURE_ONLY})
      on conflict do nothing
    `;
    const to = `cliente-${randomUUID().slice(0, 8)}@example.com`;
    const cbteNro = await issue({ email: to });
    const text = textOf(await print(cbteNro));
    expect(text).toContain("Razón Social: Tercera Razón");
    expect(text).toMatch(/Importe Total:\s+\$ 800,00/);

    const mail = await eventually("the voucher's e-mail", () =>
      smtp.received.find((m) => m.rcptTo.includes(to)),
    );
    const attached = mail.parsed.attachments[0]?.content;
    expect(attached && textOf(attached)).toContain("Razón Social: Tercera Razón");
    // the operator learns why the logo is missing, without the logo itself
    const warning = stack
      .output()
      .split("\n")
      .find((line) => line.includes("issuer logo does not decode"));
    expect(warning).toContain('"level":"warn"');
    expect(warning).toContain(`"representadaId":"${issuer.representadaId}"`);
    expect(warning).not.toContain(PNG_SIGNATURE_ONLY.toString("base64"));
  });
});
