import { generateKeyPairSync } from "node:crypto";
import { makeControlClient, startSimulator, type Simulator } from "@pasarela/authority-sim";
import forge from "node-forge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWsaaClient } from "../src/index.js";

const CUIT = "20111111112";

function signedTra(keyPem: string, certPem: string, service: string): string {
  const now = Date.now();
  const at = (ms: number) => new Date(ms - 3 * 3600_000).toISOString().replace("Z", "-03:00");
  const tra =
    `<?xml version="1.0" encoding="UTF-8"?><loginTicketRequest version="1.0"><header>` +
    `<uniqueId>${Math.floor(now / 1000)}</uniqueId><generationTime>${at(now - 600_000)}</generationTime>` +
    `<expirationTime>${at(now + 600_000)}</expirationTime></header><service>${service}</service></loginTicketRequest>`;
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(tra, "utf8");
  const cert = forge.pki.certificateFromPem(certPem);
  p7.addCertificate(cert);
  p7.addSigner({
    key: forge.pki.privateKeyFromPem(keyPem),
    certificate: cert,
    digestAlgorithm: forge.pki.oids.sha256!,
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType!, value: forge.pki.oids.data! },
      { type: forge.pki.oids.messageDigest! },
      { type: forge.pki.oids.signingTime!, value: new Date() as unknown as string },
    ],
  });
  p7.sign();
  return forge.util.encode64(forge.asn1.toDer(p7.toAsn1()).getBytes());
}

describe("WSAA soap client against the simulator", () => {
  let sim: Simulator;
  let keyPem: string;
  let certPem: string;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, timeoutHoldMs: 3_000 });
    const control = makeControlClient(sim.url);
    keyPem = generateKeyPairSync("rsa", {
      modulusLength: 2048,
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    }).privateKey;
    const key = forge.pki.privateKeyFromPem(keyPem);
    const csr = forge.pki.createCertificationRequest();
    csr.publicKey = forge.pki.rsa.setPublicKey(key.n, key.e);
    csr.setSubject([
      { shortName: "CN", value: "clienttest" },
      { type: "2.5.4.5", value: `CUIT ${CUIT}` },
    ]);
    csr.sign(key, forge.md.sha256.create());
    certPem = await control.issueCertificate(
      "homologacion",
      forge.pki.certificationRequestToPem(csr),
    );
    await control.delegate("homologacion", { cuit: CUIT, alias: "clienttest", service: "wsfe" });
  });

  afterAll(async () => {
    await sim?.close();
  });

  it("obtains and parses a TA, then reads the fault of a second login", async () => {
    const client = makeWsaaClient({
      endpoint: sim.endpoints("homologacion").wsaa,
      timeoutMs: 5_000,
    });
    const first = await client.loginCms(signedTra(keyPem, certPem, "wsfe"));
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(first.ticket.token.length).toBeGreaterThan(10);
    expect(first.ticket.expirationTime.getTime() - first.ticket.generationTime.getTime()).toBe(
      12 * 3600_000,
    );
    const second = await client.loginCms(signedTra(keyPem, certPem, "wsfe"));
    expect(second).toEqual({
      ok: false,
      failure: {
        kind: "fault",
        code: "coe.alreadyAuthenticated",
        message: "El CEE ya posee un TA valido para el acceso al WSN solicitado",
        status: 500,
      },
    });
  });

  it("reads coe.notAuthorized for a service not delegated", async () => {
    const client = makeWsaaClient({
      endpoint: sim.endpoints("homologacion").wsaa,
      timeoutMs: 5_000,
    });
    const outcome = await client.loginCms(signedTra(keyPem, certPem, "wsfex"));
    expect(!outcome.ok && outcome.failure.kind === "fault" && outcome.failure.code).toBe(
      "coe.notAuthorized",
    );
  });

  it("reports a timeout as such", async () => {
    const control = makeControlClient(sim.url);
    await control.setFault("produccion", { service: "wsaa", mode: "timeout", rate: 1 });
    const client = makeWsaaClient({ endpoint: sim.endpoints("produccion").wsaa, timeoutMs: 300 });
    const outcome = await client.loginCms(signedTra(keyPem, certPem, "wsfe"));
    expect(outcome).toEqual({ ok: false, failure: { kind: "timeout", timeoutMs: 300 } });
    await control.setFault("produccion", { service: "wsaa", mode: "none" });
  });

  it("reports an HTTP error without a SOAP fault as http", async () => {
    const client = makeWsaaClient({ endpoint: `${sim.url}/nowhere/LoginCms`, timeoutMs: 5_000 });
    const outcome = await client.loginCms("AAAA");
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(["http", "unreadable"]).toContain(outcome.failure.kind);
  });

  it("reports a refused connection as a network failure", async () => {
    const client = makeWsaaClient({ endpoint: "http://127.0.0.1:9/LoginCms", timeoutMs: 2_000 });
    const outcome = await client.loginCms("AAAA");
    expect(!outcome.ok && outcome.failure.kind).toBe("network");
  });
});
