import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealer {
  /**
   * AES-256-GCM with a fresh IV. `context` is authenticated but not stored: a ciphertext moved
   * to another row (another context) no longer opens.
   */
  seal: (plaintext: string, context: string) => Buffer;
  /** Throws when the key, the context or the bytes are wrong: that is corruption, not input. */
  open: (sealed: Uint8Array, context: string) => string;
}

/** Layout: version byte, IV, tag, ciphertext; the version leaves room for key rotation. */
export function makeSealer(keyBase64: string): Sealer {
  const key = Buffer.from(keyBase64, "base64");
  if (key.length !== 32) throw new Error("the key-encryption key must be 32 bytes");
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(context, "utf8"));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    open(sealed, context) {
      const bytes = Buffer.from(sealed);
      if (bytes[0] !== VERSION) throw new Error(`unknown sealing version ${bytes[0]}`);
      const iv = bytes.subarray(1, 1 + IV_BYTES);
      const tag = bytes.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      // a fixed tag length: a shortened tag would otherwise be checked as a weaker one
      const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(context, "utf8"));
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(bytes.subarray(1 + IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    },
  };
}
