import { X509Certificate, generateKeyPairSync, randomBytes } from "node:crypto";
import { isIP } from "node:net";
import forge from "node-forge";

/**
 * The simulator's own TLS material: a local test CA (unrelated to the authority's two CAs that
 * sign taxpayers' certificates) and the server certificate it signs. Kept with the state, so
 * a CA a gateway was told to trust (AUTHORITY_CA_FILE) stays valid across restarts.
 */
export interface TlsState {
  ca: { keyPem: string; certPem: string };
  server: { keyPem: string; certPem: string; names: string[] };
}

/** What the server certificate always covers; SIM_TLS_NAMES adds to it. */
export const DEFAULT_TLS_NAMES: readonly string[] = ["localhost", "127.0.0.1", "::1"];

const DAY_MS = 86_400_000;
/** A server certificate this close to expiry is issued again at start-up. */
const RENEW_BEFORE_MS = 30 * DAY_MS;

function rsaKey(): forge.pki.rsa.PrivateKey {
  const { privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  return forge.pki.privateKeyFromPem(privateKey);
}

function newCertificate(
  key: forge.pki.rsa.PrivateKey,
  nowMs: number,
  validDays: number,
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.rsa.setPublicKey(key.n, key.e);
  // A leading 0x01 byte keeps the DER INTEGER positive.
  cert.serialNumber = `01${randomBytes(8).toString("hex")}`;
  cert.validity.notBefore = new Date(nowMs - DAY_MS);
  cert.validity.notAfter = new Date(nowMs + validDays * DAY_MS);
  return cert;
}

function createTlsCa(nowMs: number): TlsState["ca"] {
  const key = rsaKey();
  const cert = newCertificate(key, nowMs, 10 * 365);
  const subject = [
    { shortName: "CN", value: "pasarela authority simulator TLS CA" },
    { shortName: "O", value: "pasarela (local testing only)" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return { keyPem: forge.pki.privateKeyToPem(key), certPem: forge.pki.certificateToPem(cert) };
}

function issueServerCertificate(
  ca: TlsState["ca"],
  names: readonly string[],
  nowMs: number,
): TlsState["server"] {
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const caKey = forge.pki.privateKeyFromPem(ca.keyPem);
  const key = rsaKey();
  const cert = newCertificate(key, nowMs, 2 * 365);
  cert.setSubject([{ shortName: "CN", value: names[0] ?? "localhost" }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    { name: "extKeyUsage", serverAuth: true },
    {
      name: "subjectAltName",
      altNames: names.map((n) => (isIP(n) === 0 ? { type: 2, value: n } : { type: 7, ip: n })),
    },
    { name: "subjectKeyIdentifier" },
    {
      name: "authorityKeyIdentifier",
      keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes(),
    },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return {
    keyPem: forge.pki.privateKeyToPem(key),
    certPem: forge.pki.certificateToPem(cert),
    names: [...names],
  };
}

/**
 * The TLS material for `names`: the stored CA (created once), and the stored server
 * certificate unless it lacks one of the names or is about to expire.
 */
export function ensureTls(
  stored: TlsState | undefined,
  names: readonly string[],
  nowMs: number,
): TlsState {
  const wanted = [...new Set([...DEFAULT_TLS_NAMES, ...names])];
  const ca = stored?.ca ?? createTlsCa(nowMs);
  const server = stored?.ca === ca ? stored.server : undefined;
  const usable =
    server !== undefined &&
    wanted.every((n) => server.names.includes(n)) &&
    Date.parse(new X509Certificate(server.certPem).validTo) - nowMs > RENEW_BEFORE_MS;
  return { ca, server: usable ? server : issueServerCertificate(ca, wanted, nowMs) };
}
