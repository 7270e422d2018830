import { generateKeyPairSync } from "node:crypto";
import type { ControlClient } from "@pasarela/authority-sim";
import forge from "node-forge";

type Environment = "homologacion" | "produccion";

/** A fresh key and a certificate for it, issued by the simulator's CA of `environment`. */
export async function certificateFrom(
  control: ControlClient,
  environment: Environment,
  cuit: string,
  alias: string,
): Promise<{ keyPem: string; certPem: string }> {
  const keyPem = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  }).privateKey;
  const key = forge.pki.privateKeyFromPem(keyPem);
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.rsa.setPublicKey(key.n, key.e);
  csr.setSubject([
    { shortName: "CN", value: alias },
    { type: "2.5.4.5", value: `CUIT ${cuit}` },
  ]);
  csr.sign(key, forge.md.sha256.create());
  const certPem = await control.issueCertificate(
    environment,
    forge.pki.certificationRequestToPem(csr),
  );
  return { keyPem, certPem };
}

/** A TRA for `service`, signed as WSAA expects it (CMS, SHA-256, content attached), in base64. */
export function signedTra(keyPem: string, certPem: string, service: string): string {
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
