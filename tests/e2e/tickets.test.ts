import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  http,
  newAccount,
  opensslKeyAndCsr,
  randomCuit,
  representadaCreateArgs,
  scratch,
  signCsr,
  simDelegate,
  simPos,
  simStats,
  type Account,
  type Environment,
  type Scratch,
} from "../support/operator.js";
import { startE2EStack, type E2EStack } from "../support/stack.js";

const env = "homologacion" as const;

interface Created {
  representadaId: string;
  cuit: string;
  environment: string;
  alias: string;
  csr: string;
}
interface Listed {
  representadas: {
    representadaId: string;
    cuit: string;
    environment: string;
    alias: string;
    ptoVta: number | null;
    certificate: { status: string; notAfter: string | null } | null;
  }[];
}

describe("representadas, certificates and access tickets through the operator CLIs", () => {
  let stack: E2EStack;
  let dir: Scratch;
  let account: Account;

  beforeAll(async () => {
    stack = await startE2EStack({ env: { LOG_LEVEL: "info" } });
    dir = scratch();
    account = await newAccount(stack, "Tickets");
  });

  afterAll(async () => {
    await stack?.teardown();
    dir?.remove();
  });

  const create = (cuit: string, environment: Environment, ...extra: string[]) =>
    stack.admin<Created>(...representadaCreateArgs(account.accountId, cuit, environment, ...extra));
  const upload = (representadaId: string, certFile: string, keyFile?: string) =>
    stack.adminRun(
      "certificate",
      "upload",
      "--representada",
      representadaId,
      "--cert",
      certFile,
      ...(keyFile ? ["--key", keyFile] : []),
    );
  /** a failed CLI run: non-zero exit, nothing on stdout, one JSON object on stderr */
  const refusal = (run: { code: number; stdout: string; stderr: string }) => {
    expect(run.code, run.stderr).not.toBe(0);
    expect(run.stdout).toBe("");
    return JSON.parse(run.stderr) as { error: string };
  };
  const list = () => stack.admin<Listed>("representada", "list", "--account", account.accountId);

  it("creates a representada whose CSR carries CN=<alias> and serialNumber=CUIT <cuit>", async () => {
    const cuit = randomCuit();
    const created = await create(cuit, env, "--alias", "facturador", "--pto-vta", "2");
    expect(created).toMatchObject({ cuit, environment: env, alias: "facturador" });
    expect(created.csr.startsWith("-----BEGIN CERTIFICATE REQUEST-----")).toBe(true);
    const subject = execFileSync(
      "openssl",
      ["req", "-noout", "-subject", "-in", dir.file("gateway.csr", created.csr)],
      { encoding: "utf8" },
    );
    expect(subject).toContain("CN = facturador");
    expect(subject).toContain(`serialNumber = CUIT ${cuit}`);
    expect(JSON.stringify(created)).not.toContain("PRIVATE KEY");
  });

  it("refuses a CUIT with a wrong check digit, on stderr with a non-zero exit", async () => {
    const cuit = randomCuit();
    const wrong = `${cuit.slice(0, 10)}${(Number(cuit[10]) + 1) % 10}`;
    const run = await stack.adminRun(...representadaCreateArgs(account.accountId, wrong, env));
    expect(refusal(run).error).toContain("CUIT");
  });

  it("refuses the CSR uploaded in place of the certificate, saying so", async () => {
    const created = await create(randomCuit(), env);
    const run = await upload(created.representadaId, dir.file("its-own.csr", created.csr));
    expect(refusal(run).error).toContain(
      "Subiste un pedido de certificado (CSR), no un certificado",
    );
    const mine = (await list()).representadas.find(
      (r) => r.representadaId === created.representadaId,
    );
    expect(mine?.certificate?.status).toBe("pending");
  });

  it("refuses a certificate that does not match the pending key, and a mismatched certificate + key pair", async () => {
    const cuit = randomCuit();
    const [created, a, b] = await Promise.all([
      create(cuit, env),
      opensslKeyAndCsr(dir, cuit, "otra-pc"),
      opensslKeyAndCsr(dir, cuit, "tercera-pc"),
    ]);
    const certA = dir.file(
      "a.pem",
      await signCsr(stack, dir, env, readFileSync(a.csrFile, "utf8")),
    );
    const mismatch =
      "La clave pública del certificado no corresponde a la clave privada de la representada";
    const [againstPending, againstOtherKey] = await Promise.all([
      upload(created.representadaId, certA),
      upload(created.representadaId, certA, b.keyFile),
    ]);
    expect(refusal(againstPending).error).toBe(mismatch);
    expect(refusal(againstOtherKey).error).toBe(mismatch);
  });

  it("activates a certificate signed by the simulator for the gateway's CSR, listed without key material", async () => {
    const cuit = randomCuit();
    const created = await create(cuit, env, "--pto-vta", "4");
    const pem = await signCsr(stack, dir, env, created.csr);
    const run = await upload(created.representadaId, dir.file("cert.pem", pem));
    expect(run.code, run.stderr).toBe(0);
    const uploaded = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(uploaded).toMatchObject({ representadaId: created.representadaId, status: "active" });
    expect(uploaded).not.toHaveProperty("warning");
    expect(Date.parse(String(uploaded.notAfter))).toBeGreaterThan(Date.now());

    const listed = await list();
    expect(listed.representadas).toContainEqual(
      expect.objectContaining({
        representadaId: created.representadaId,
        cuit,
        environment: env,
        alias: created.alias,
        ptoVta: 4,
        certificate: { status: "active", notAfter: uploaded.notAfter },
      }),
    );
    expect(JSON.stringify(listed)).not.toMatch(/PRIVATE KEY|BEGIN/);
  });

  it("keeps the same CUIT in homologacion and produccion as two entries, and refuses a duplicate", async () => {
    const cuit = randomCuit("27");
    const [homo, prod] = await Promise.all([
      create(cuit, "homologacion"),
      create(cuit, "produccion"),
    ]);
    expect(prod.representadaId).not.toBe(homo.representadaId);
    expect(prod.csr).not.toBe(homo.csr);
    const [listed, again] = await Promise.all([
      list(),
      stack.adminRun(...representadaCreateArgs(account.accountId, cuit, "produccion")),
    ]);
    const mine = listed.representadas.filter((r) => r.cuit === cuit);
    expect(mine.map((r) => r.environment).sort()).toEqual(["homologacion", "produccion"]);
    expect(refusal(again).error).toBe("La representada ya está registrada en ese entorno");
  });

  it("accepts a certificate + key pair made outside with openssl, cancels the pending CSR and logs in with it", async () => {
    const cuit = randomCuit();
    const [created, external] = await Promise.all([
      create(cuit, env, "--pto-vta", "6"),
      opensslKeyAndCsr(dir, cuit, "pc-externa"),
    ]);
    const [externalPem, gatewayPem] = await Promise.all([
      signCsr(stack, dir, env, readFileSync(external.csrFile, "utf8")),
      signCsr(stack, dir, env, created.csr),
    ]);
    const run = await upload(
      created.representadaId,
      dir.file("external.pem", externalPem),
      external.keyFile,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      representadaId: created.representadaId,
      status: "active",
    });

    // the gateway's own CSR is no longer pending: its certificate now needs a key.
    // The pair is the one WSAA sees: delegated by its own alias (CN).
    const [late] = await Promise.all([
      upload(created.representadaId, dir.file("late.pem", gatewayPem)),
      simDelegate(stack, env, { cuit, alias: "pc-externa", service: "wsfe" }),
      simPos(stack, env, { cuit, ptoVta: 6 }),
    ]);
    expect(refusal(late).error).toBe(
      "No hay un pedido de certificado pendiente: subí el certificado junto con su clave privada",
    );

    // 50 concurrent first queries: exactly one WSAA login
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        http(stack, "POST", "/api/wsfe/ultimo-comprobante", account.rw, {
          environment: env,
          representada: cuit,
          cbteTipo: 11,
        }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json()).toEqual({ cbteNro: 0, ptoVta: 6, cbteTipo: 11 });
    }
    const stats = await simStats(stack, env);
    expect(stats.logins["pc-externa|wsfe"]).toBe(1);
    expect(stats.logins[`${created.alias}|wsfe`]).toBeUndefined();
  });
});
