import { generateKeyPairSync, randomBytes } from "node:crypto";
import forge from "node-forge";
import type { Environment, EnvState } from "./state.js";

const SERIAL_NUMBER_OID = "2.5.4.5";

const CA_SUBJECTS: Record<Environment, string> = {
  homologacion: "Computadores Test",
  produccion: "Computadores",
};

function serialHex(): string {
  // A leading 0x01 byte keeps the DER INTEGER positive.
  return `01${randomBytes(8).toString("hex")}`;
}

export function createCa(environment: Environment, nowMs: number): EnvState["ca"] {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  const key = forge.pki.privateKeyFromPem(privateKey);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.rsa.setPublicKey(key.n, key.e);
  cert.serialNumber = serialHex();
  cert.validity.notBefore = new Date(nowMs - 86_400_000);
  cert.validity.notAfter = new Date(nowMs + 10 * 365 * 86_400_000);
  const subject = [
    { shortName: "CN", value: CA_SUBJECTS[environment] },
    { shortName: "O", value: "AFIP" },
    { shortName: "C", value: "AR" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return {
    keyPem: forge.pki.privateKeyToPem(key),
    certPem: forge.pki.certificateToPem(cert),
  };
}

export interface LoadedCa {
  readonly cert: forge.pki.Certificate;
  readonly key: forge.pki.rsa.PrivateKey;
}

export function loadCa(ca: EnvState["ca"]): LoadedCa {
  return {
    cert: forge.pki.certificateFromPem(ca.certPem),
    key: forge.pki.privateKeyFromPem(ca.keyPem),
  };
}

export function subjectField(
  cert: forge.pki.Certificate | forge.pki.CertificateSigningRequest,
  which: "CN" | "serialNumber",
): string | undefined {
  const attr = cert.subject.attributes.find((a) =>
    which === "CN" ? a.shortName === "CN" : a.type === SERIAL_NUMBER_OID,
  );
  return typeof attr?.value === "string" ? attr.value : undefined;
}

export class CsrError extends Error {}

/**
 * Issues a 2-year certificate for the CSR's key. Like the authority, the subject keeps only
 * CN and serialNumber, whatever else the CSR asked for.
 */
export function issueCertificate(ca: LoadedCa, csrPem: string, nowMs: number): string {
  let csr: forge.pki.CertificateSigningRequest;
  try {
    csr = forge.pki.certificationRequestFromPem(csrPem);
  } catch (error) {
    throw new CsrError(`CSR not readable: ${error instanceof Error ? error.message : "?"}`);
  }
  if (!csr.verify()) throw new CsrError("CSR signature does not verify");
  const cn = subjectField(csr, "CN");
  const serial = subjectField(csr, "serialNumber");
  if (cn === undefined) throw new CsrError("CSR subject lacks CN");
  if (serial === undefined || !/^CUIT \d{11}$/.test(serial)) {
    throw new CsrError('CSR subject lacks serialNumber "CUIT <11 digits>"');
  }
  if (csr.publicKey === null) throw new CsrError("CSR has no public key");
  const cert = forge.pki.createCertificate();
  cert.publicKey = csr.publicKey;
  cert.serialNumber = serialHex();
  cert.validity.notBefore = new Date(nowMs - 60_000);
  cert.validity.notAfter = new Date(nowMs + 2 * 365 * 86_400_000);
  cert.setSubject([
    { shortName: "CN", value: cn },
    { type: SERIAL_NUMBER_OID, value: serial },
  ]);
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true, critical: true },
    { name: "subjectKeyIdentifier" },
    {
      name: "authorityKeyIdentifier",
      keyIdentifier: ca.cert.generateSubjectKeyIdentifier().getBytes(),
    },
  ]);
  cert.sign(ca.key, forge.md.sha512.create());
  return forge.pki.certificateToPem(cert);
}
