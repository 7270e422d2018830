import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import forge from "node-forge";

const generateRsa = promisify(generateKeyPair);

export interface CsrSubject {
  cuit: string;
  alias: string;
  organization?: string | undefined;
  country?: string | undefined;
}

/**
 * A fresh RSA 2048 key and its CSR with the subject the authority expects:
 * `CN=<alias>, serialNumber=CUIT <cuit>`, plus O and C when given. The key is made by
 * Node's native generator (off the event loop), the CSR by node-forge.
 */
export async function generateKeyAndCsr(
  subject: CsrSubject,
): Promise<{ keyPem: string; csrPem: string }> {
  const { privateKey } = await generateRsa("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const key = forge.pki.privateKeyFromPem(privateKey);
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.rsa.setPublicKey(key.n, key.e);
  csr.setSubject([
    ...(subject.country ? [{ shortName: "C", value: subject.country }] : []),
    ...(subject.organization ? [{ shortName: "O", value: subject.organization }] : []),
    { shortName: "CN", value: subject.alias },
    { type: "2.5.4.5", value: `CUIT ${subject.cuit}` },
  ]);
  csr.sign(key, forge.md.sha256.create());
  return { keyPem: privateKey, csrPem: forge.pki.certificationRequestToPem(csr) };
}
