import { createPrivateKey, X509Certificate, type KeyObject } from "node:crypto";
import { appError, fail, ok, type Environment, type Result } from "@pasarela/errors";

const CSR_MARKER = /-----BEGIN (NEW )?CERTIFICATE REQUEST-----/;
const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** The issuer CNs of the authority's two CAs (test and production). */
const CA_ENVIRONMENTS: Record<string, Environment> = {
  "Computadores Test": "homologacion",
  Computadores: "produccion",
};

export interface UploadedCertificate {
  /** the first certificate block only: a pasted chain keeps the leaf */
  readonly pem: string;
  readonly fingerprint: string;
  readonly subject: string;
  readonly issuer: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** which of the authority's CAs issued it, when recognisable */
  readonly issuerEnvironment: Environment | undefined;
  /** true when `privateKeyPem` is the key of this certificate's public key */
  readonly matchesKey: (privateKeyPem: string) => boolean;
}

/** `C=AR\nCN=x` (Node's layout) → `C=AR, CN=x`. */
const oneLine = (name: string) => name.split("\n").filter(Boolean).join(", ");

function field(name: string, key: string): string | undefined {
  const prefix = `${key}=`;
  return name
    .split("\n")
    .find((part) => part.startsWith(prefix))
    ?.slice(prefix.length);
}

/**
 * Reads an uploaded certificate and refuses, in this order, a CSR in its place, anything that
 * is not a PEM certificate, and a certificate outside its validity.
 */
export function readCertificate(text: string, now: Date): Result<UploadedCertificate> {
  if (CSR_MARKER.test(text)) return fail(appError("CERTIFICATE_IS_CSR"));
  const block = CERTIFICATE_BLOCK.exec(text)?.[0];
  if (!block) return fail(appError("CERTIFICATE_NOT_PEM"));
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(block);
  } catch {
    return fail(appError("CERTIFICATE_NOT_PEM"));
  }
  const notBefore = new Date(x509.validFrom);
  const notAfter = new Date(x509.validTo);
  if (now < notBefore) {
    return fail(appError("CERTIFICATE_NOT_YET_VALID", { notBefore: notBefore.toISOString() }));
  }
  if (now > notAfter) {
    return fail(appError("CERTIFICATE_EXPIRED", { notAfter: notAfter.toISOString() }));
  }
  const issuerCn = field(x509.issuer, "CN");
  return ok({
    pem: `${x509.toString().trim()}\n`,
    fingerprint: x509.fingerprint256.replaceAll(":", "").toLowerCase(),
    subject: oneLine(x509.subject),
    issuer: oneLine(x509.issuer),
    notBefore,
    notAfter,
    issuerEnvironment: issuerCn === undefined ? undefined : CA_ENVIRONMENTS[issuerCn],
    matchesKey: (privateKeyPem) => {
      try {
        return x509.checkPrivateKey(createPrivateKey(privateKeyPem));
      } catch {
        return false;
      }
    },
  });
}

/** An unencrypted RSA private key in PEM (PKCS#1 or PKCS#8), normalised to PKCS#8. */
export function readPrivateKey(text: string): Result<string> {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: "pem" });
  } catch {
    return fail(appError("PRIVATE_KEY_INVALID"));
  }
  if (key.asymmetricKeyType !== "rsa") return fail(appError("PRIVATE_KEY_INVALID"));
  return ok(key.export({ type: "pkcs8", format: "pem" }).toString());
}
