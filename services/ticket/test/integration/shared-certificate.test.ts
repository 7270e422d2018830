import { randomBytes, randomUUID, X509Certificate } from "node:crypto";
import {
  makeControlClient,
  startSimulator,
  type ControlClient,
  type Simulator,
} from "@pasarela/authority-sim";
import type { Bus } from "@pasarela/bus";
import { ticket } from "@pasarela/contracts";
import { migrateToLatest } from "@pasarela/db";
import { capturingLogger, fileInfra, type FileInfra } from "@pasarela/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrations, schema, startTicket } from "../../src/index.js";
import { sealingContext } from "../../src/domain/aliases.js";
import { makeSealer } from "../../src/domain/sealing.js";
import {
  connectClient,
  externalKeyAndCsr,
  KEY_ENCRYPTION_KEY,
  newAccount,
  ticketConfig,
  uniqueAlias,
} from "./helpers.js";

/** the certificate's owner: a software vendor acting for its clients */
const VENDOR = "20222222223";
/** two clients that delegated wsfe to the vendor's alias */
const CLIENT_A = "20333333334";
const CLIENT_B = "30711111111";
/** a CUIT that delegated nothing */
const STRANGER = "20444444445";

const WSFE_NS = "http://ar.gov.afip.dif.FEV1/";

type Environment = "homologacion" | "produccion";

const fingerprintOf = (pem: string) =>
  new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase();

describe("ticket: one certificate registered for several representadas and accounts", () => {
  let infra: FileInfra;
  let sim: Simulator;
  let control: ControlClient;
  let client: Bus;
  const instances: { stop: () => Promise<void> }[] = [];
  const { logger } = capturingLogger("ticket");

  beforeAll(async () => {
    infra = await fileInfra();
    sim = await startSimulator({ port: 0 });
    control = makeControlClient(sim.url);
    // two instances in one queue group: requests are spread over both
    for (let i = 0; i < 2; i++) {
      const instance = await startTicket(ticketConfig(infra, sim), logger);
      await instance.bus.connection.flush();
      instances.push(instance);
    }
    client = await connectClient(infra, logger);
  });

  afterAll(async () => {
    await client?.close();
    for (const instance of instances) await instance.stop();
    await sim?.close();
    await infra?.cleanup();
  });

  const logins = async (
    alias: string,
    service = "wsfe",
    environment: Environment = "homologacion",
  ) => (await control.stats(environment)).logins[`${alias}|${service}`] ?? 0;

  /** The vendor's certificate, made outside the gateway and issued by the simulator's CA. */
  async function vendorCertificate(services: readonly ("wsfe" | "wsfex")[], clients: string[]) {
    const alias = uniqueAlias("vendor");
    const { keyPem, csrPem } = externalKeyAndCsr(VENDOR, alias);
    const certificate = await control.issueCertificate("homologacion", csrPem);
    for (const service of services) {
      for (const cuit of [VENDOR, ...clients]) {
        await control.delegate("homologacion", { cuit, alias, service });
      }
    }
    return { alias, keyPem, certificate };
  }

  /** FECompUltimoAutorizado at the simulator with this TA for `cuit`: the `Errors`, if any. */
  async function useAtWsfe(ta: { token: string; sign: string }, cuit: string) {
    const envelope =
      `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ar="${WSFE_NS}">` +
      `<soap:Body><ar:FECompUltimoAutorizado><ar:Auth><ar:Token>${ta.token}</ar:Token>` +
      `<ar:Sign>${ta.sign}</ar:Sign><ar:Cuit>${cuit}</ar:Cuit></ar:Auth>` +
      `<ar:PtoVta>1</ar:PtoVta><ar:CbteTipo>1</ar:CbteTipo></ar:FECompUltimoAutorizado>` +
      `</soap:Body></soap:Envelope>`;
    const response = await fetch(sim.endpoints("homologacion").wsfe, {
      method: "POST",
      headers: {
        "content-type": "text/xml; charset=utf-8",
        soapaction: `"${WSFE_NS}FECompUltimoAutorizado"`,
      },
      body: envelope,
    });
    const body = await response.text();
    expect(response.status).toBe(200);
    return /<Errors>[\s\S]*<\/Errors>/.exec(body)?.[0];
  }

  it("logs in once for concurrent first requests of every registration, and each TA serves its CUIT", async () => {
    const vendor = await vendorCertificate(["wsfe"], [CLIENT_A, CLIENT_B]);
    const first = newAccount();
    const second = newAccount();
    const registrations = [
      { accountId: first, cuit: CLIENT_A },
      { accountId: first, cuit: CLIENT_B },
      { accountId: second, cuit: CLIENT_B },
    ];
    for (const { accountId, cuit } of registrations) {
      const created = await client.request(ticket.representadaCreate, {
        accountId,
        cuit,
        environment: "homologacion",
      });
      if (!created.ok) throw new Error(created.error.message);
      const uploaded = await client.request(ticket.certificateCreate, {
        representadaId: created.value.representadaId,
        certificate: vendor.certificate,
        privateKey: vendor.keyPem,
      });
      expect(uploaded.ok && uploaded.value.status).toBe("active");
    }
    for (const cuit of [CLIENT_A, CLIENT_B, STRANGER]) {
      await control.enablePointOfSale("homologacion", { cuit, ptoVta: 1, service: "wsfe" });
    }

    // every registration's first requests at once, spread over both instances
    const asked = registrations.flatMap((registration) =>
      Array.from({ length: 40 }, () => registration),
    );
    const answers = await Promise.all(
      asked.map(({ accountId, cuit }) =>
        client.request(
          ticket.accessGet,
          { cuit, environment: "homologacion", service: "wsfe" },
          { accountId },
        ),
      ),
    );
    expect(answers.filter((a) => !a.ok)).toEqual([]);
    expect(await logins(vendor.alias)).toBe(1);
    const tokens = new Set(answers.map((a) => (a.ok ? a.value.token : "")));
    expect(tokens.size).toBe(1);
    answers.forEach((answer, i) => expect(answer.ok && answer.value.cuit).toBe(asked[i]!.cuit));

    // the one TA acts for each represented CUIT, and only for those that delegated
    for (const cuit of [CLIENT_A, CLIENT_B]) {
      const answer = answers.find((a) => a.ok && a.value.cuit === cuit);
      if (!answer?.ok) throw new Error(`no TA for ${cuit}`);
      expect(await useAtWsfe(answer.value, answer.value.cuit)).toBeUndefined();
    }
    const any = answers[0]!;
    if (!any.ok) throw new Error("no TA");
    expect(await useAtWsfe(any.value, STRANGER)).toContain("<Code>600</Code>");

    // one stored TA for the certificate, however many registrations
    const sql = postgres(infra.databaseUrl, { max: 1 });
    try {
      const fingerprint = fingerprintOf(vendor.certificate);
      const certificates = await sql`
        select id from ticket.certificates where fingerprint = ${fingerprint} and status = 'active'`;
      expect(certificates).toHaveLength(3);
      const rows = await sql`
        select service, environment, sealed_for_certificate_id from ticket.access_tickets
         where fingerprint = ${fingerprint}`;
      expect(rows).toEqual([
        { service: "wsfe", environment: "homologacion", sealed_for_certificate_id: null },
      ]);
    } finally {
      await sql.end();
    }

    // later requests of any registration, in any account, are served without a login
    const later = await client.request(
      ticket.accessGet,
      { cuit: CLIENT_B, environment: "homologacion", service: "wsfe" },
      { accountId: second },
    );
    expect(later.ok && later.value.token).toBe(any.value.token);
    expect(await logins(vendor.alias)).toBe(1);
  });

  it("carries the TAs stored per certificate row over the upgrade: no login, verified sealing, re-sealed at the next login", async () => {
    // a database holding only the first migration, with the rows the previous code wrote
    const serverUrl = inject("databaseServerUrl");
    const name = `pasarela_t_${randomBytes(6).toString("hex")}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const databaseUrl = url.toString();
    const prefix = `${infra.prefix}_m`;
    let instance: { stop: () => Promise<void> } | undefined;
    let bus: Bus | undefined;
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const [firstMigration] = Object.keys(migrations).sort();
      await migrateToLatest(databaseUrl, schema, {
        [firstMigration!]: migrations[firstMigration!]!,
      });

      const vendor = await vendorCertificate(["wsfe", "wsfex"], [CLIENT_A, CLIENT_B]);
      const other = await vendorCertificate(["wsfe"], []);
      const sealer = makeSealer(KEY_ENCRYPTION_KEY);
      const accountA = newAccount();
      const accountB = newAccount();
      const accountOther = newAccount();
      const ids = {
        repA: randomUUID(),
        repB: randomUUID(),
        repOther: randomUUID(),
        certA: randomUUID(),
        certB: randomUUID(),
        certOther: randomUUID(),
      };
      const now = Date.now();
      const hours = (h: number) => new Date(now + h * 3600_000);
      await sql`insert into ticket.representadas (id, account_id, cuit, environment, alias) values
        (${ids.repA}, ${accountA}, ${CLIENT_A}, 'homologacion', ${vendor.alias}),
        (${ids.repB}, ${accountB}, ${CLIENT_B}, 'homologacion', ${vendor.alias}),
        (${ids.repOther}, ${accountOther}, ${VENDOR}, 'homologacion', ${other.alias})`;
      const certificateRow = (
        id: string,
        representadaId: string,
        pem: string,
        keyPem: string,
        fingerprint: string | null,
      ) => {
        const x509 = new X509Certificate(pem);
        return {
          id,
          representada_id: representadaId,
          status: "active",
          private_key_sealed: sealer.seal(keyPem, sealingContext.privateKey(id)),
          certificate_pem: `${x509.toString().trim()}\n`,
          fingerprint,
          not_before: new Date(x509.validFrom),
          not_after: new Date(x509.validTo),
          activated_at: new Date(now),
        };
      };
      const fingerprint = fingerprintOf(vendor.certificate);
      const otherFingerprint = fingerprintOf(other.certificate);
      await sql`insert into ticket.certificates ${sql([
        // written before fingerprints were relied on: the migration computes it
        certificateRow(ids.certA, ids.repA, vendor.certificate, vendor.keyPem, null),
        certificateRow(ids.certB, ids.repB, vendor.certificate, vendor.keyPem, fingerprint),
        certificateRow(
          ids.certOther,
          ids.repOther,
          other.certificate,
          other.keyPem,
          otherFingerprint,
        ),
      ])}`;
      const legacyTicket = (
        certificateId: string,
        service: string,
        token: string,
        expiresAt: Date,
      ) => ({
        certificate_id: certificateId,
        service,
        token_sealed: sealer.seal(token, sealingContext.legacyToken(certificateId, service)),
        sign_sealed: sealer.seal(
          `${token}-sign`,
          sealingContext.legacySign(certificateId, service),
        ),
        generated_at: new Date(now),
        expires_at: expiresAt,
        retry_at: null,
        pending_until: null,
      });
      await sql`insert into ticket.access_tickets ${sql([
        legacyTicket(ids.certA, "wsfe", "token-a", hours(6)),
        legacyTicket(ids.certB, "wsfe", "token-b", hours(11)),
        legacyTicket(ids.certOther, "wsfe", "token-other", hours(8)),
      ])}`;
      // registration A was refused wsfex: the authority holds a TA neither registration has
      await sql`insert into ticket.access_tickets
        (certificate_id, service, retry_at, pending_until)
        values (${ids.certA}, 'wsfex', ${hours(0.5)}, ${hours(5)})`;

      // the upgraded service migrates at start
      instance = await startTicket(
        ticketConfig(infra, sim, { DATABASE_URL: databaseUrl, NATS_PREFIX: prefix }),
        logger,
      );
      bus = await connectClient({ ...infra, prefix }, logger);
      const access = (accountId: string, cuit: string, service: "wsfe" | "wsfex" = "wsfe") =>
        bus!.request(
          ticket.accessGet,
          { cuit, environment: "homologacion", service },
          { accountId },
        );

      const [computed] = await sql<{ fingerprint: string }[]>`
        select fingerprint from ticket.certificates where id = ${ids.certA}`;
      expect(computed?.fingerprint).toBe(fingerprint);
      const rows = await sql<
        { fingerprint: string; service: string; sealed_for_certificate_id: string | null }[]
      >`select fingerprint, service, sealed_for_certificate_id, retry_at, pending_until
          from ticket.access_tickets order by fingerprint, service`;
      expect(rows).toHaveLength(3);
      expect(rows.find((r) => r.fingerprint === fingerprint && r.service === "wsfe")).toMatchObject(
        { sealed_for_certificate_id: ids.certB },
      );
      expect(
        rows.find((r) => r.fingerprint === fingerprint && r.service === "wsfex"),
      ).toMatchObject({ sealed_for_certificate_id: ids.certA, pending_until: hours(5) });

      // both registrations share the TA that lives longest, opened with its original sealing
      for (const [accountId, cuit] of [
        [accountA, CLIENT_A],
        [accountB, CLIENT_B],
      ] as const) {
        const answer = await access(accountId, cuit);
        expect(answer.ok ? answer.value : answer.error).toEqual({
          token: "token-b",
          sign: "token-b-sign",
          expiresAt: hours(11).toISOString(),
          cuit,
        });
        // the throttle carried over from A's row holds for B too
        const pending = await access(accountId, cuit, "wsfex");
        expect(!pending.ok && pending.error.code).toBe("ACCESS_TICKET_PENDING");
      }
      expect(await logins(vendor.alias)).toBe(0);
      expect(await logins(vendor.alias, "wsfex")).toBe(0);

      // a migrated ciphertext moved to another certificate's row does not open there
      await sql`update ticket.access_tickets o
           set token_sealed = v.token_sealed, sign_sealed = v.sign_sealed,
               sealed_for_certificate_id = v.sealed_for_certificate_id
          from ticket.access_tickets v
         where o.fingerprint = ${otherFingerprint} and o.service = 'wsfe'
           and v.fingerprint = ${fingerprint} and v.service = 'wsfe'`;
      const moved = await access(accountOther, VENDOR);
      expect(moved.ok).toBe(true);
      expect(moved.ok && moved.value.token).not.toBe("token-b");
      expect(await logins(other.alias)).toBe(1);

      // the next login of the shared certificate replaces the migrated row, sealed for its key
      await sql`update ticket.access_tickets set expires_at = now() + interval '10 seconds'
         where fingerprint = ${fingerprint} and service = 'wsfe'`;
      const renewed = await access(accountA, CLIENT_A);
      expect(renewed.ok).toBe(true);
      if (!renewed.ok) return;
      expect(renewed.value.token).not.toBe("token-b");
      expect(await logins(vendor.alias)).toBe(1);
      const [row] = await sql<{ sealed_for_certificate_id: string | null }[]>`
        select sealed_for_certificate_id from ticket.access_tickets
         where fingerprint = ${fingerprint} and service = 'wsfe'`;
      expect(row?.sealed_for_certificate_id).toBeNull();
      const shared = await access(accountB, CLIENT_B);
      expect(shared.ok && shared.value.token).toBe(renewed.value.token);
      expect(await logins(vendor.alias)).toBe(1);
    } finally {
      await bus?.close();
      await instance?.stop();
      await sql.end();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
