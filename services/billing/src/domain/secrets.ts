import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * API-key secrets look like `pas_<12 hex>_<43 base64url>`. The first 16 characters are the
 * visible prefix (stored in clear, used to find the row); the whole string is the secret,
 * stored only as an HMAC-SHA256 under the pepper from configuration.
 */
const PREFIX_TAG = "pas_";
export const PREFIX_LENGTH = PREFIX_TAG.length + 12;
const SECRET_PATTERN = /^pas_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/;

export interface NewSecret {
  prefix: string;
  secret: string;
}

export function generateSecret(): NewSecret {
  const prefix = `${PREFIX_TAG}${randomBytes(6).toString("hex")}`;
  const secret = `${prefix}_${randomBytes(32).toString("base64url")}`;
  return { prefix, secret };
}

/** The prefix of a well-formed secret, or undefined for anything else. */
export function prefixOf(secret: string): string | undefined {
  return SECRET_PATTERN.test(secret) ? secret.slice(0, PREFIX_LENGTH) : undefined;
}

export function makeHasher(pepper: string) {
  const hash = (secret: string): Buffer => createHmac("sha256", pepper).update(secret).digest();
  return {
    hash,
    /** constant-time: the comparison takes as long whether the first or last byte differs */
    matches(secret: string, stored: Buffer): boolean {
      const candidate = hash(secret);
      return candidate.length === stored.length && timingSafeEqual(candidate, stored);
    },
  };
}

export type Hasher = ReturnType<typeof makeHasher>;
