import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
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

const env = "homologacion" as const;
const PTO_VTA = 7;

/**
 * Printed vouchers with every service as its own process: the profile set with the operator
 * CLI, a voucher issued through the edge, its `pdfUrl` opened without a key and the same
 * document printed with one, read back with pdftotext.
 */
describe("printed vouchers end to end", () => {
  let stack: E2EStack;
  let dir: Scratch;
  let account: Account;
  let issuer: Registered;

  beforeAll(async () => {
    stack = await startE2EStack();
    dir = scratch();
    account = await newAccount(stack, "Imprenta");
    issuer = await registerWsfeIssuer(stack, dir, account.accountId, env, PTO_VTA);
  });

  afterAll(async () => {
    await stack?.teardown();
    dir?.remove();
  });

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
});
