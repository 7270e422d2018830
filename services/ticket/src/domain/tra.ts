import forge from "node-forge";

const SKEW_MS = 10 * 60_000;
const ARGENTINA_OFFSET_MS = -3 * 3600_000;

/**
 * xsd:dateTime in Argentina time with its offset written out: an offset-less time would be
 * read in the server's zone, and a time ahead of its clock is refused.
 */
export function argentinaDateTime(ms: number): string {
  return new Date(ms + ARGENTINA_OFFSET_MS).toISOString().replace("Z", "-03:00");
}

/**
 * The loginTicketRequest for one service. generationTime 10 minutes back and expirationTime
 * 10 minutes ahead absorb clock skew; source and destination are omitted, as advised.
 */
export function buildTra(service: string, nowMs: number): string {
  const uniqueId = Math.floor(nowMs / 1000) % 2 ** 32;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<loginTicketRequest version="1.0"><header>` +
    `<uniqueId>${uniqueId}</uniqueId>` +
    `<generationTime>${argentinaDateTime(nowMs - SKEW_MS)}</generationTime>` +
    `<expirationTime>${argentinaDateTime(nowMs + SKEW_MS)}</expirationTime>` +
    `</header><service>${service}</service></loginTicketRequest>`
  );
}

/**
 * CMS SignedData over the TRA, content attached, SHA-256, the signer certificate only
 * (the afip.js recipe); answers the base64 of the DER.
 */
export function signTra(tra: string, credential: { keyPem: string; certPem: string }): string {
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(tra, "utf8");
  const certificate = forge.pki.certificateFromPem(credential.certPem);
  p7.addCertificate(certificate);
  p7.addSigner({
    key: forge.pki.privateKeyFromPem(credential.keyPem),
    certificate,
    digestAlgorithm: forge.pki.oids.sha256!,
    authenticatedAttributes: [
      { type: forge.pki.oids.contentType!, value: forge.pki.oids.data! },
      { type: forge.pki.oids.messageDigest! },
      // forge fills signingTime from a Date although its typings say string
      { type: forge.pki.oids.signingTime!, value: new Date() as unknown as string },
    ],
  });
  p7.sign();
  return forge.util.encode64(forge.asn1.toDer(p7.toAsn1()).getBytes());
}
