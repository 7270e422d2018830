import { randomBytes } from "node:crypto";

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/**
 * A signing secret in the Standard Webhooks format: `whsec_` and the base64 of 32 random
 * bytes, the key of the HMAC-SHA256 that will sign each delivery.
 */
export const newSecreto = (bytes: Uint8Array = randomBytes(32)): string => {
  if (bytes.length !== 32) throw new Error("a signing secret is 32 bytes");
  return `whsec_${Buffer.from(bytes).toString("base64")}`;
};

/** The HMAC key a secret stands for (what the delivery slice will sign with). */
export const secretoKey = (secreto: string): Buffer => {
  if (!secreto.startsWith("whsec_")) throw new Error("not a signing secret");
  return Buffer.from(secreto.slice("whsec_".length), "base64");
};

/** When a secret rotated out at `now` stops signing. */
export const anteriorVence = (now: Date): Date => new Date(now.getTime() + ROTATION_OVERLAP_MS);
