import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "@pasarela/admin";
import {
  makeControlClient,
  startSimulator,
  type ControlClient,
  type Simulator,
} from "@pasarela/authority-sim";
import type { Bus } from "@pasarela/bus";
import { ticket } from "@pasarela/contracts";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  connectClient,
  externalKeyAndCsr,
  loginCount,
  newAccount,
  startInstance,
  uniqueAlias,
} from "./helpers.js";

const CUIT = "20111111112";
const OTHER_CUIT = "30000000007";

describe("ticket: representadas, certificates and access tickets", () => {
  let infra: FileInfra;
  let sim: Simulator;
  let control: ControlClient;
  let client: Bus;
  let dir: string;
  const instances: { stop: () => Promise<void> }[] = [];
  const { logger, lines } = capturingLogger("ticket");

  beforeAll(async () => {
    infra = await fileInfra();
    sim = await startSimulator({ port: 0 });
    control = makeControlClient(sim.url);
    // two instances in one queue group: requests are spread over both
    for (let i = 0; i < 2; i++) instances.push(await startInstance(infra, sim, logger));
    client = await connectClient(infra, logger);
    dir = await mkdtemp(join(tmpdir(), "ticket-test-"));
  });

  afterAll(async () => {
    await client?.close();
    for (const instance of instances) await instance.stop();
    await sim?.close();
    await infra?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function create(
    accountId: string,
    options: { cuit?: string; environment?: "homologacion" | "produccion"; alias?: string } = {},
  ) {
    const created = await client.request(ticket.representadaCreate, {
      accountId,
      cuit: options.cuit ?? CUIT,
      environment: options.environment ?? "homologacion",
      alias: options.alias ?? uniqueAlias("t"),
    });
    if (!created.ok) throw new Error(created.error.message);
    return created.value;
  }

  /** create → CSR → the authority's certificate → upload, delegated for `services`. */
  async function registered(
    services: readonly ("wsfe" | "wsfex")[] = ["wsfe"],
    environment: "homologacion" | "produccion" = "homologacion",
  ) {
    const accountId = newAccount();
    const created = await create(accountId, { environment });
    const certificate = await control.issueCertificate(environment, created.csr);
    for (const service of services) {
      await control.delegate(environment, { cuit: CUIT, alias: created.alias, service });
    }
    const uploaded = await client.request(ticket.certificateCreate, {
      representadaId: created.representadaId,
      certificate,
    });
    if (!uploaded.ok) throw new Error(uploaded.error.message);
    return { accountId, ...created, certificate };
  }

  const access = (
    accountId: string,
    service: "wsfe" | "wsfex" = "wsfe",
    environment: "homologacion" | "produccion" = "homologacion",
    cuit = CUIT,
  ) => client.request(ticket.accessGet, { cuit, environment, service }, { accountId });

  const logins = (alias: string, service?: string) => loginCount(control, alias, service);

  it("creates a representada, answers its CSR, accepts the authority's certificate and obtains a TA", async () => {
    const accountId = newAccount();
    const created = await create(accountId, { alias: uniqueAlias("flow") });
    expect(created.csr.startsWith("-----BEGIN CERTIFICATE REQUEST-----")).toBe(true);
    expect(created.environment).toBe("homologacion");

    const before = await access(accountId);
    expect(!before.ok && before.error.code).toBe("NO_ACTIVE_CERTIFICATE");
    expect(!before.ok && before.error.message).toBe(
      "La representada no tiene certificado activo en ese entorno",
    );

    const certificate = await control.issueCertificate("homologacion", created.csr);
    await control.delegate("homologacion", { cuit: CUIT, alias: created.alias, service: "wsfe" });
    const uploaded = await client.request(ticket.certificateCreate, {
      representadaId: created.representadaId,
      certificate,
    });
    expect(uploaded.ok).toBe(true);
    if (!uploaded.ok) return;
    expect(uploaded.value.status).toBe("active");
    expect(uploaded.value.warning).toBeUndefined();
    expect(uploaded.value.issuer).toContain("CN=Computadores Test");

    const ta = await access(accountId);
    expect(ta.ok).toBe(true);
    if (!ta.ok) return;
    expect(ta.value.cuit).toBe(CUIT);
    expect(Date.parse(ta.value.expiresAt) - Date.now()).toBeGreaterThan(11 * 3600_000);
    const again = await access(accountId);
    expect(again.ok && again.value.token).toBe(ta.value.token);
    expect(await logins(created.alias)).toBe(1);

    const resolved = await client.request(
      ticket.representadaGet,
      { cuit: CUIT, environment: "homologacion", requireActiveCertificate: true },
      { accountId },
    );
    expect(resolved).toEqual({
      ok: true,
      value: {
        representadaId: created.representadaId,
        cuit: CUIT,
        environment: "homologacion",
        alias: created.alias,
        ptoVta: null,
        contingencia: { caea: false, puntosDeVenta: [] },
        certificateActive: true,
        // no profile yet: a voucher issued now copies an issuer with nothing set
        emisor: {
          razonSocial: null,
          domicilioComercial: null,
          condicionIva: null,
          ingresosBrutos: null,
          inicioActividades: null,
          logo: null,
        },
      },
    });
  });

  it("answers the product's 403 message for another account, another environment or an unknown CUIT", async () => {
    const { accountId } = await registered();
    const attempts = [
      access(newAccount()),
      access(accountId, "wsfe", "produccion"),
      access(accountId, "wsfe", "homologacion", OTHER_CUIT),
      client.request(
        ticket.representadaGet,
        { cuit: CUIT, environment: "produccion" },
        { accountId },
      ),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.ok).toBe(false);
      if (answer.ok) continue;
      expect(answer.error.code).toBe("REPRESENTADA_NOT_FOUND");
      expect(answer.error.message).toBe(
        "La representada no existe, no pertenece a tu cuenta o no está registrada en ese entorno",
      );
    }
    // a request that names no account is refused by the bus before any lookup
    expect(
      await client.request(ticket.accessGet, {
        cuit: CUIT,
        environment: "homologacion",
        service: "wsfe",
      }),
    ).toEqual({ ok: false, error: { code: "UNAUTHORIZED", message: "No autorizado" } });
  });

  it("refuses an invalid CUIT and a second registration in the same environment, not in the other", async () => {
    const accountId = newAccount();
    const invalid = await client.request(ticket.representadaCreate, {
      accountId,
      cuit: "20111111113",
      environment: "homologacion",
    });
    expect(!invalid.ok && invalid.error.code).toBe("INVALID_CUIT");
    const first = await create(accountId);
    expect(first.alias.length).toBeGreaterThan(0);
    const duplicate = await client.request(ticket.representadaCreate, {
      accountId,
      cuit: CUIT,
      environment: "homologacion",
    });
    expect(!duplicate.ok && duplicate.error.code).toBe("REPRESENTADA_DUPLICATE");
    const production = await client.request(ticket.representadaCreate, {
      accountId,
      cuit: CUIT,
      environment: "produccion",
      ptoVta: 3,
    });
    expect(production.ok).toBe(true);
    expect(production.ok && production.value.alias).toMatch(/^pasarela20111111112[0-9a-f]{6}$/);
    const listed = await client.request(ticket.representadaList, { accountId });
    expect(listed.ok && listed.value.representadas.map((r) => [r.environment, r.ptoVta])).toEqual([
      ["homologacion", null],
      ["produccion", 3],
    ]);
    expect(listed.ok && listed.value.representadas[0]?.certificate).toEqual({
      status: "pending",
      notAfter: null,
    });
  });

  it("refuses the CSR uploaded in place of the certificate", async () => {
    const created = await create(newAccount());
    const uploaded = await client.request(ticket.certificateCreate, {
      representadaId: created.representadaId,
      certificate: created.csr,
    });
    expect(!uploaded.ok && uploaded.error.code).toBe("CERTIFICATE_IS_CSR");
    expect(!uploaded.ok && uploaded.error.message).toContain("CSR");
  });

  it("refuses a certificate for another key and a mismatched certificate/key pair", async () => {
    const mine = await create(newAccount());
    const theirs = await create(newAccount());
    const theirCertificate = await control.issueCertificate("homologacion", theirs.csr);
    const wrongKey = await client.request(ticket.certificateCreate, {
      representadaId: mine.representadaId,
      certificate: theirCertificate,
    });
    expect(!wrongKey.ok && wrongKey.error.code).toBe("CERTIFICATE_KEY_MISMATCH");

    const external = externalKeyAndCsr(CUIT, uniqueAlias("ext"));
    const other = externalKeyAndCsr(CUIT, uniqueAlias("other"));
    const externalCertificate = await control.issueCertificate("homologacion", external.csrPem);
    const mismatchedPair = await client.request(ticket.certificateCreate, {
      representadaId: mine.representadaId,
      certificate: externalCertificate,
      privateKey: other.keyPem,
    });
    expect(!mismatchedPair.ok && mismatchedPair.error.code).toBe("CERTIFICATE_KEY_MISMATCH");
  });

  it("accepts a pair generated outside and cancels the pending CSR", async () => {
    const accountId = newAccount();
    const created = await create(accountId);
    const alias = uniqueAlias("pair");
    const external = externalKeyAndCsr(CUIT, alias);
    const certificate = await control.issueCertificate("homologacion", external.csrPem);
    await control.delegate("homologacion", { cuit: CUIT, alias, service: "wsfe" });
    const uploaded = await client.request(ticket.certificateCreate, {
      representadaId: created.representadaId,
      certificate,
      privateKey: external.keyPem,
    });
    expect(uploaded.ok && uploaded.value.status).toBe("active");
    const sql = postgres(infra.databaseUrl, { max: 1 });
    try {
      const rows = await sql<{ status: string }[]>`
        select status from ticket.certificates where representada_id = ${created.representadaId}
        order by created_at`;
      expect(rows.map((r) => r.status).sort()).toEqual(["active", "cancelled"]);
    } finally {
      await sql.end();
    }
    const ta = await access(accountId);
    expect(ta.ok).toBe(true);
    // with nothing pending, a certificate alone cannot be placed
    const again = await client.request(ticket.certificateCreate, {
      representadaId: created.representadaId,
      certificate,
    });
    expect(!again.ok && again.error.code).toBe("CERTIFICATE_NEEDS_KEY");
  });

  it("warns at upload and answers 403 at login for a production certificate in homologacion", async () => {
    const accountId = newAccount();
    const created = await create(accountId);
    const production = await control.issueCertificate("produccion", created.csr);
    await control.delegate("homologacion", { cuit: CUIT, alias: created.alias, service: "wsfe" });
    const uploaded = await client.request(ticket.certificateCreate, {
      representadaId: created.representadaId,
      certificate: production,
    });
    expect(uploaded.ok).toBe(true);
    expect(uploaded.ok && uploaded.value.warning).toEqual({
      code: "CERTIFICATE_WRONG_ENVIRONMENT",
      message: "El certificado fue emitido por la AC del otro entorno",
      issuerEnvironment: "produccion",
    });
    const ta = await access(accountId);
    expect(!ta.ok && ta.error.code).toBe("CERTIFICATE_ENVIRONMENT_MISMATCH");
    expect(!ta.ok && ta.error.message).toContain("Certificado no emitido por AC de confianza");
  });

  it("answers 403 naming the service when the alias is not delegated for it, and recovers once it is", async () => {
    const { accountId, alias } = await registered(["wsfe"]);
    const refused = await access(accountId, "wsfex");
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe("SERVICE_NOT_DELEGATED");
    expect(refused.error.message).toContain("wsfex");
    expect(refused.error.message).toContain("en homologación");
    expect(refused.error.details).toEqual({ service: "wsfex", environment: "homologacion" });
    // a refusal is not remembered: the delegation counts from the next login
    await control.delegate("homologacion", { cuit: CUIT, alias, service: "wsfex" });
    const granted = await access(accountId, "wsfex");
    expect(granted.ok).toBe(true);
  });

  it("a certificate that stops being delegated takes effect on the next login: 403 naming the service", async () => {
    const { accountId, alias, representadaId } = await registered(["wsfex"]);
    const first = await access(accountId, "wsfex");
    expect(first.ok ? "ok" : first.error).toBe("ok");
    if (!first.ok) return;
    expect(await logins(alias, "wsfex")).toBe(1);

    expect(
      await control.undelegate("homologacion", { cuit: CUIT, alias, service: "wsfex" }),
    ).toEqual({ ok: true, removed: true });
    // the TA already issued carries its relations: it is still served, without a login
    const stored = await access(accountId, "wsfex");
    expect(stored.ok && stored.value.token).toBe(first.value.token);
    expect(await logins(alias, "wsfex")).toBe(1);

    // 12 h on: the TA has expired here (its times moved back) and at the authority
    const sql = postgres(infra.databaseUrl, { max: 1 });
    try {
      const aged = await sql`
        update ticket.access_tickets
           set generated_at = generated_at - interval '12 hours 1 minute',
               expires_at = expires_at - interval '12 hours 1 minute'
         where service = 'wsfex'
           and fingerprint in
               (select fingerprint from ticket.certificates where representada_id = ${representadaId})`;
      expect(aged.count).toBe(1);
    } finally {
      await sql.end();
    }
    await control.forgetTas("homologacion");

    const refused = await access(accountId, "wsfex");
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe("SERVICE_NOT_DELEGATED");
    expect(refused.error.message).toContain("wsfex");
    expect(refused.error.message).toContain("en homologación");
    expect(refused.error.details).toEqual({ service: "wsfex", environment: "homologacion" });
    expect(await logins(alias, "wsfex")).toBe(2);

    // delegated again, the next login gets a new TA
    await control.delegate("homologacion", { cuit: CUIT, alias, service: "wsfex" });
    const granted = await access(accountId, "wsfex");
    expect(granted.ok && granted.value.token !== first.value.token).toBe(true);
    expect(await logins(alias, "wsfex")).toBe(3);
  });

  it("logs in exactly once for 500 concurrent first requests spread over two instances", async () => {
    const { accountId, alias } = await registered(["wsfe"]);
    const answers = await Promise.all(Array.from({ length: 500 }, () => access(accountId)));
    const failures = answers.filter((a) => !a.ok);
    expect(failures).toEqual([]);
    const tokens = new Set(answers.map((a) => (a.ok ? a.value.token : "")));
    expect(tokens.size).toBe(1);
    expect(await logins(alias)).toBe(1);
  });

  it("reuses the stored TA after a restart of every instance: no new login", async () => {
    const { accountId, alias } = await registered(["wsfe"]);
    const first = await access(accountId);
    expect(first.ok).toBe(true);
    expect(await logins(alias)).toBe(1);
    for (const instance of instances.splice(0)) await instance.stop();
    instances.push(await startInstance(infra, sim, logger));
    const after = await access(accountId);
    expect(after.ok ? "ok" : after.error).toBe("ok");
    expect(after.ok && first.ok && after.value.token === first.value.token).toBe(true);
    expect(await logins(alias)).toBe(1);
  });

  it("answers a retryable ACCESS_TICKET_PENDING, not a loop of logins, when the authority holds a TA we lack", async () => {
    const { accountId, alias } = await registered(["wsfe"]);
    expect((await access(accountId)).ok).toBe(true);
    // the stored TA is lost (say, a database restored from an old backup)
    const sql = postgres(infra.databaseUrl, { max: 1 });
    try {
      await sql`delete from ticket.access_tickets`;
    } finally {
      await sql.end();
    }
    const pending = await access(accountId);
    expect(pending.ok).toBe(false);
    if (pending.ok) return;
    expect(pending.error.code).toBe("ACCESS_TICKET_PENDING");
    expect(pending.error.message).toContain("podrá obtenerse uno nuevo a partir de");
    const availableAt = Date.parse(String(pending.error.details?.availableAt));
    expect(availableAt - Date.now()).toBeGreaterThan(11 * 3600_000);
    const loginsAfterRefusal = await logins(alias);
    const again = await Promise.all(Array.from({ length: 20 }, () => access(accountId)));
    expect(again.every((a) => !a.ok && a.error.code === "ACCESS_TICKET_PENDING")).toBe(true);
    expect(await logins(alias)).toBe(loginsAfterRefusal);
  });

  it("answers 502 when WSAA is unavailable or does not answer in time", async () => {
    const { accountId } = await registered(["wsfe"], "produccion");
    await control.setFault("produccion", { service: "wsaa", mode: "unavailable", rate: 1 });
    try {
      const unavailable = await access(accountId, "wsfe", "produccion");
      expect(!unavailable.ok && unavailable.error.code).toBe("AUTHORITY_UNAVAILABLE");
      expect(!unavailable.ok && unavailable.error.message).toContain("wsaa.unavailable");
      await control.setFault("produccion", { service: "wsaa", mode: "timeout", rate: 1 });
      const timedOut = await access(accountId, "wsfe", "produccion");
      expect(!timedOut.ok && timedOut.error.code).toBe("AUTHORITY_UNAVAILABLE");
      expect(!timedOut.ok && timedOut.error.message).toContain("no respondió en 5000 ms");
    } finally {
      await control.setFault("produccion", { service: "wsaa", mode: "none" });
    }
    const recovered = await access(accountId, "wsfe", "produccion");
    expect(recovered.ok).toBe(true);
  });

  it("serves the operator CLI: representada create/list and certificate upload", async () => {
    const env = { NATS_URL: infra.natsUrl, NATS_PREFIX: infra.prefix };
    const accountId = newAccount();
    const created = await runCli(
      [
        "representada",
        "create",
        "--account",
        accountId,
        "--cuit",
        CUIT,
        "--environment",
        "homologacion",
        "--pto-vta",
        "2",
      ],
      env,
    );
    expect(created.exitCode).toBe(0);
    const body = JSON.parse(created.stdout ?? "{}") as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual([
      "alias",
      "csr",
      "cuit",
      "environment",
      "representadaId",
    ]);
    const certificatePath = join(dir, "cert.pem");
    await writeFile(certificatePath, await control.issueCertificate("homologacion", body.csr!));
    const uploaded = await runCli(
      ["certificate", "upload", "--representada", body.representadaId!, "--cert", certificatePath],
      env,
    );
    expect(uploaded.exitCode).toBe(0);
    const upload = JSON.parse(uploaded.stdout ?? "{}") as Record<string, string>;
    expect(upload).toEqual({
      representadaId: body.representadaId,
      status: "active",
      notAfter: expect.any(String) as string,
    });
    const csrPath = join(dir, "csr.pem");
    await writeFile(csrPath, body.csr!);
    const refused = await runCli(
      ["certificate", "upload", "--representada", body.representadaId!, "--cert", csrPath],
      env,
    );
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain("CSR");
    const listed = await runCli(["representada", "list", "--account", accountId], env);
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout ?? "{}")).toMatchObject({
      representadas: [{ cuit: CUIT, ptoVta: 2, certificate: { status: "active" } }],
    });
  });

  it("keeps no private key, token or sign in clear in the database or the logs", async () => {
    const { accountId } = await registered(["wsfe"]);
    const ta = await access(accountId);
    expect(ta.ok).toBe(true);
    if (!ta.ok) return;
    const sql = postgres(infra.databaseUrl, { max: 1 });
    let dump: string;
    try {
      const tables = await Promise.all([
        sql`select * from ticket.representadas`,
        sql`select * from ticket.certificates`,
        sql`select * from ticket.access_tickets`,
      ]);
      dump = JSON.stringify(tables, (_key, value: unknown) =>
        value instanceof Uint8Array ? Buffer.from(value).toString("latin1") : value,
      );
    } finally {
      await sql.end();
    }
    expect(dump).toContain("BEGIN CERTIFICATE");
    expect(dump).not.toContain("PRIVATE KEY");
    expect(dump).not.toContain(ta.value.token);
    expect(dump).not.toContain(ta.value.sign);
    expect(dump).not.toContain(ta.value.token.slice(0, 40));
    const logged = lines.join("");
    expect(logged).toContain("access ticket obtained");
    expect(logged).not.toContain(ta.value.token.slice(0, 40));
    expect(logged).not.toContain(ta.value.sign.slice(0, 40));
    expect(logged).not.toContain("PRIVATE KEY");
  });
});
