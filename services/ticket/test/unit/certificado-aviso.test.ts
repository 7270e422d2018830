import { generateKeyPairSync, randomUUID, X509Certificate } from "node:crypto";
import { ticket } from "@pasarela/contracts";
import forge from "node-forge";
import { describe, expect, it } from "vitest";
import { avisoDue, avisoEvent, diasRestantes } from "../../src/domain/certificado-aviso.js";

const DAY = 86_400_000;
const notAfter = new Date("2026-12-31T12:00:00.000Z");
const before = (ms: number) => new Date(notAfter.getTime() - ms);

describe("which expiry notice a certificate is due", () => {
  it("none with more than 30 days left", () => {
    expect(avisoDue(notAfter, before(30 * DAY + 1), [])).toBeUndefined();
    expect(avisoDue(notAfter, before(200 * DAY), [])).toBeUndefined();
  });

  it("30, 7 and 1 days before, then expired, each once", () => {
    expect(avisoDue(notAfter, before(30 * DAY), [])).toBe("30");
    expect(avisoDue(notAfter, before(29 * DAY), ["30"])).toBeUndefined();
    expect(avisoDue(notAfter, before(7 * DAY), ["30"])).toBe("7");
    expect(avisoDue(notAfter, before(3 * DAY), ["30", "7"])).toBeUndefined();
    expect(avisoDue(notAfter, before(DAY), ["30", "7"])).toBe("1");
    expect(avisoDue(notAfter, before(1), ["30", "7", "1"])).toBeUndefined();
    expect(avisoDue(notAfter, notAfter, ["30", "7", "1"])).toBe("vencido");
    expect(avisoDue(notAfter, before(-90 * DAY), ["30", "7", "1", "vencido"])).toBeUndefined();
  });

  it("only the tightest threshold reached for a certificate first seen late", () => {
    expect(avisoDue(notAfter, before(5 * DAY), [])).toBe("7");
    // a check that was down for weeks announces the expiry, not the thresholds it missed
    expect(avisoDue(notAfter, before(-DAY), ["30"])).toBe("vencido");
  });
});

describe("days left", () => {
  it("counts whole days, 0 on the last one, negative once past", () => {
    expect(diasRestantes(notAfter, before(7 * DAY))).toBe(7);
    expect(diasRestantes(notAfter, before(6.5 * DAY))).toBe(6);
    expect(diasRestantes(notAfter, before(DAY / 2))).toBe(0);
    expect(diasRestantes(notAfter, before(-DAY / 2))).toBe(0);
    expect(Object.is(diasRestantes(notAfter, before(-DAY / 2)), 0)).toBe(true);
    expect(diasRestantes(notAfter, before(-3 * DAY))).toBe(-3);
  });
});

describe("the notice's event", () => {
  const keyPem = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  const key = forge.pki.privateKeyFromPem(keyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.rsa.setPublicKey(key.n, key.e);
  cert.serialNumber = "0a1b2c3d";
  cert.validity.notBefore = new Date("2024-12-31T12:00:00.000Z");
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ shortName: "CN", value: "alias1" }]);
  cert.setIssuer([{ shortName: "CN", value: "Computadores Test" }]);
  cert.sign(key, forge.md.sha256.create());
  const pem = forge.pki.certificateToPem(cert);
  const certificate = {
    certificateId: randomUUID(),
    representadaId: randomUUID(),
    accountId: randomUUID(),
    cuit: "20111111112",
    environment: "homologacion" as const,
    certificatePem: pem,
    fingerprint: new X509Certificate(pem).fingerprint256.replaceAll(":", "").toLowerCase(),
    notAfter,
  };

  it("por_vencer: one id per certificate and threshold, the serial as X.509 tools print it", () => {
    const now = before(6.5 * DAY);
    const event = avisoEvent("7", certificate, now);
    expect(ticket.certificadoPorVencer.schema.parse(event)).toEqual({
      id: `${certificate.certificateId}:por_vencer:7`,
      version: 1,
      certificateId: certificate.certificateId,
      representadaId: certificate.representadaId,
      accountId: certificate.accountId,
      cuit: "20111111112",
      environment: "homologacion",
      serialNumber: "0A1B2C3D",
      fingerprint: certificate.fingerprint,
      notAfter: notAfter.toISOString(),
      diasRestantes: 6,
      umbral: 7,
      occurredAt: now.toISOString(),
    });
  });

  it("vencido: its own id, no threshold", () => {
    const event = avisoEvent("vencido", certificate, before(-2 * DAY));
    expect(event.id).toBe(`${certificate.certificateId}:vencido`);
    expect(event).not.toHaveProperty("umbral");
    expect(ticket.certificadoVencido.schema.parse(event).diasRestantes).toBe(-2);
  });
});
