import { X509Certificate } from "node:crypto";
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

/** the certificate's owner: a software vendor acting for its clients */
const VENDOR = "20222222223";
/** two clients that delegated wsfe to the vendor's alias */
const CLIENT_A = "20333333334";
const CLIENT_B = "30711111111";
/** a CUIT that delegated nothing */
const STRANGER = "20444444445";

const WSFE_NS = "http://ar.gov.afip.dif.FEV1/";

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
    for (let i = 0; i < 2; i++) instances.push(await startInstance(infra, sim, logger));
    client = await connectClient(infra, logger);
  });

  afterAll(async () => {
    await client?.close();
    for (const instance of instances) await instance.stop();
    await sim?.close();
    await infra?.cleanup();
  });

  /**
   * The vendor's certificate, made outside the gateway and issued by the simulator's CA, with
   * wsfe delegated to it by the vendor and both clients.
   */
  async function vendorCertificate() {
    const alias = uniqueAlias("vendor");
    const { keyPem, csrPem } = externalKeyAndCsr(VENDOR, alias);
    const certificate = await control.issueCertificate("homologacion", csrPem);
    for (const cuit of [VENDOR, CLIENT_A, CLIENT_B]) {
      await control.delegate("homologacion", { cuit, alias, service: "wsfe" });
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
    const vendor = await vendorCertificate();
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
    expect(await loginCount(control, vendor.alias)).toBe(1);
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
        select service, environment from ticket.access_tickets
         where fingerprint = ${fingerprint}`;
      expect(rows).toEqual([{ service: "wsfe", environment: "homologacion" }]);
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
    expect(await loginCount(control, vendor.alias)).toBe(1);
  });
});
