import { generateKeyPairSync } from "node:crypto";
import { makeWsaaClient } from "@pasarela/authority";
import type { ControlClient, Environment, Simulator } from "@pasarela/authority-sim";
import forge from "node-forge";

/**
 * A WSFE access ticket from the simulator's own WSAA, obtained as a client of the authority
 * would: a key, a CSR signed by the environment's CA, the delegation, and loginCms with a
 * CMS-signed TRA. For tests that talk SOAP to the simulator without the ticket service.
 */
export async function simTicket(
  sim: Simulator,
  control: ControlClient,
  environment: Environment,
  cuit: string,
  alias: string,
): Promise<{ token: string; sign: string }> {
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
  await control.delegate(environment, { cuit, alias, service: "wsfe" });

  const now = Date.now();
  const at = (ms: number) => new Date(ms - 3 * 3_600_000).toISOString().replace("Z", "-03:00");
  const tra =
    `<?xml version="1.0" encoding="UTF-8"?><loginTicketRequest version="1.0"><header>` +
    `<uniqueId>${Math.floor(now / 1000)}</uniqueId><generationTime>${at(now - 600_000)}</generationTime>` +
    `<expirationTime>${at(now + 600_000)}</expirationTime></header><service>wsfe</service></loginTicketRequest>`;
  const cms = forge.pkcs7.createSignedData();
  cms.content = forge.util.createBuffer(tra, "utf8");
  const cert = forge.pki.certificateFromPem(certPem);
  cms.addCertificate(cert);
  cms.addSigner({
    key,
    certificate: cert,
    digestAlgorithm: forge.pki.oids.sha256 ?? "",
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType ?? "", value: forge.pki.oids.data ?? "" },
      { type: forge.pki.oids.messageDigest ?? "" },
      { type: forge.pki.oids.signingTime ?? "", value: new Date() as unknown as string },
    ],
  });
  cms.sign();
  const signed = forge.util.encode64(forge.asn1.toDer(cms.toAsn1()).getBytes());
  const login = await makeWsaaClient({
    endpoint: sim.endpoints(environment).wsaa,
    timeoutMs: 30_000,
  }).loginCms(signed);
  if (!login.ok) throw new Error(`simulator WSAA refused the login: ${JSON.stringify(login)}`);
  return { token: login.ticket.token, sign: login.ticket.sign };
}
