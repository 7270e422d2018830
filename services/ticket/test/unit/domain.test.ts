import { generateKeyPairSync } from "node:crypto";
import forge from "node-forge";
import { describe, expect, it } from "vitest";
import { readCertificate, readPrivateKey } from "../../src/domain/certificate.js";
import { generateKeyAndCsr } from "../../src/domain/csr.js";
import { makeSealer } from "../../src/domain/sealing.js";
import { decide } from "../../src/domain/ticket-policy.js";
import { argentinaDateTime, buildTra } from "../../src/domain/tra.js";

const KEK = Buffer.alloc(32, 7).toString("base64");

describe("sealing", () => {
  const sealer = makeSealer(KEK);
  it("round-trips and never holds the plaintext", () => {
    const sealed = sealer.seal("-----BEGIN PRIVATE KEY-----secret", "ctx");
    expect(sealed.toString("latin1")).not.toContain("PRIVATE KEY");
    expect(sealer.open(sealed, "ctx")).toBe("-----BEGIN PRIVATE KEY-----secret");
  });
  it("refuses another context, another key and tampered bytes", () => {
    const sealed = sealer.seal("token", "row-1");
    expect(() => sealer.open(sealed, "row-2")).toThrow();
    expect(() =>
      makeSealer(Buffer.alloc(32, 8).toString("base64")).open(sealed, "row-1"),
    ).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => sealer.open(tampered, "row-1")).toThrow();
  });
  it("refuses a key-encryption key that is not 32 bytes", () => {
    expect(() => makeSealer(Buffer.alloc(16).toString("base64"))).toThrow();
  });
});

describe("TRA", () => {
  it("writes Argentina time with its offset, 10 minutes either side of now", () => {
    const now = Date.parse("2026-11-22T15:00:00.000Z");
    const tra = buildTra("wsfe", now);
    expect(argentinaDateTime(now)).toBe("2026-11-22T12:00:00.000-03:00");
    expect(tra).toContain("<generationTime>2026-11-22T11:50:00.000-03:00</generationTime>");
    expect(tra).toContain("<expirationTime>2026-11-22T12:10:00.000-03:00</expirationTime>");
    expect(tra).toContain("<service>wsfe</service>");
    expect(tra).toMatch(/<uniqueId>\d+<\/uniqueId>/);
  });
});

describe("refresh policy", () => {
  const policy = { refreshAheadMs: 300_000, minRemainingMs: 30_000 };
  const now = new Date("2026-11-22T12:00:00Z");
  const at = (ms: number) => new Date(now.getTime() + ms);
  const none = { expiresAt: undefined, retryAt: undefined, pendingUntil: undefined };

  it("serves a ticket with plenty of life", () => {
    expect(decide({ ...none, expiresAt: at(3600_000) }, now, policy)).toEqual({ action: "serve" });
  });
  it("logs in without a ticket", () => {
    expect(decide(none, now, policy)).toEqual({ action: "login", fallback: false });
  });
  it("renews inside the window, keeping the old one as fallback", () => {
    expect(decide({ ...none, expiresAt: at(200_000) }, now, policy)).toEqual({
      action: "login",
      fallback: true,
    });
  });
  it("waits after a refused renewal while the old one lives", () => {
    expect(decide({ ...none, expiresAt: at(200_000), retryAt: at(30_000) }, now, policy)).toEqual({
      action: "wait",
      fallback: true,
      availableAt: at(30_000),
    });
  });
  it("waits for the authority's own ticket to expire, naming when", () => {
    expect(
      decide({ ...none, retryAt: at(60_000), pendingUntil: at(3600_000) }, now, policy),
    ).toEqual({ action: "wait", fallback: false, availableAt: at(3600_000) });
  });
  it("logs in despite a renewal throttle once the old ticket is gone", () => {
    expect(decide({ ...none, expiresAt: at(10_000), retryAt: at(30_000) }, now, policy)).toEqual({
      action: "login",
      fallback: false,
    });
  });
});

function selfSigned(options: {
  keyPem: string;
  issuerCn: string;
  notBefore: Date;
  notAfter: Date;
}): string {
  const key = forge.pki.privateKeyFromPem(options.keyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.rsa.setPublicKey(key.n, key.e);
  cert.serialNumber = "01";
  cert.validity.notBefore = options.notBefore;
  cert.validity.notAfter = options.notAfter;
  cert.setSubject([
    { shortName: "CN", value: "alias1" },
    { type: "2.5.4.5", value: "CUIT 20111111112" },
  ]);
  cert.setIssuer([
    { shortName: "CN", value: options.issuerCn },
    { shortName: "O", value: "AFIP" },
    { shortName: "C", value: "AR" },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

const rsa = () =>
  generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;

describe("uploaded certificates", () => {
  const keyPem = rsa();
  const now = new Date();
  const day = 86_400_000;
  const valid = selfSigned({
    keyPem,
    issuerCn: "Computadores Test",
    notBefore: new Date(now.getTime() - day),
    notAfter: new Date(now.getTime() + day),
  });

  it("makes a CSR with the authority's subject and a matching key", async () => {
    const { keyPem: generated, csrPem } = await generateKeyAndCsr({
      cuit: "20111111112",
      alias: "miempresa",
      organization: "Mi Empresa SA",
      country: "AR",
    });
    expect(csrPem.startsWith("-----BEGIN CERTIFICATE REQUEST-----")).toBe(true);
    const csr = forge.pki.certificationRequestFromPem(csrPem);
    expect(csr.verify()).toBe(true);
    const field = (name: string | { type: string }) =>
      (csr.subject.getField(name) as { value: string } | null)?.value;
    expect(field("CN")).toBe("miempresa");
    expect(field({ type: "2.5.4.5" })).toBe("CUIT 20111111112");
    expect(field("O")).toBe("Mi Empresa SA");
    expect(field("C")).toBe("AR");
    const key = forge.pki.privateKeyFromPem(generated);
    expect(key.n.bitLength()).toBe(2048);
    expect(key.n.equals((csr.publicKey as forge.pki.rsa.PublicKey).n)).toBe(true);
  });

  it("detects a CSR uploaded in place of the certificate", async () => {
    const { csrPem } = await generateKeyAndCsr({ cuit: "20111111112", alias: "a" });
    const read = readCertificate(csrPem, now);
    expect(!read.ok && read.error.code).toBe("CERTIFICATE_IS_CSR");
  });

  it("refuses what is not a PEM certificate", () => {
    for (const text of [
      "hola",
      keyPem,
      "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----",
    ]) {
      const read = readCertificate(text, now);
      expect(!read.ok && read.error.code).toBe("CERTIFICATE_NOT_PEM");
    }
  });

  it("refuses expired and not-yet-valid certificates", () => {
    const expired = selfSigned({
      keyPem,
      issuerCn: "Computadores Test",
      notBefore: new Date(now.getTime() - 3 * day),
      notAfter: new Date(now.getTime() - day),
    });
    const future = selfSigned({
      keyPem,
      issuerCn: "Computadores Test",
      notBefore: new Date(now.getTime() + day),
      notAfter: new Date(now.getTime() + 3 * day),
    });
    const a = readCertificate(expired, now);
    const b = readCertificate(future, now);
    expect(!a.ok && a.error.code).toBe("CERTIFICATE_EXPIRED");
    expect(!b.ok && b.error.code).toBe("CERTIFICATE_NOT_YET_VALID");
  });

  it("recognises the CA of each environment and matches keys", () => {
    const read = readCertificate(`some text before\n${valid}`, now);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.issuerEnvironment).toBe("homologacion");
    expect(read.value.subject).toBe("CN=alias1, serialNumber=CUIT 20111111112");
    expect(read.value.matchesKey(keyPem)).toBe(true);
    expect(read.value.matchesKey(rsa())).toBe(false);
    const production = readCertificate(
      selfSigned({
        keyPem,
        issuerCn: "Computadores",
        notBefore: new Date(now.getTime() - day),
        notAfter: new Date(now.getTime() + day),
      }),
      now,
    );
    expect(production.ok && production.value.issuerEnvironment).toBe("produccion");
  });

  it("normalises PKCS#1 keys to PKCS#8 and refuses anything else", () => {
    const read = readPrivateKey(keyPem);
    expect(read.ok && read.value.startsWith("-----BEGIN PRIVATE KEY-----")).toBe(true);
    const ec = generateKeyPairSync("ec", {
      namedCurve: "prime256v1",
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
      publicKeyEncoding: { type: "spki", format: "pem" },
    }).privateKey;
    for (const text of ["nope", ec, valid]) {
      const bad = readPrivateKey(text);
      expect(!bad.ok && bad.error.code).toBe("PRIVATE_KEY_INVALID");
    }
  });
});
