import {
  createHash,
  randomBytes,
  scrypt as scryptCallback,
  timingSafeEqual,
  type ScryptOptions,
} from "node:crypto";

/**
 * Dashboard passwords: scrypt (RFC 7914) with N = 2^15, r = 8, p = 1 and a random 16-byte
 * salt, kept as a PHC string `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` (base64 without padding),
 * so a hash made with other parameters still verifies after they change.
 */
const DEFAULT = { ln: 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

interface Parameters {
  ln: number;
  r: number;
  p: number;
}

function scrypt(password: string, salt: Buffer, keyLength: number, params: Parameters) {
  const N = 2 ** params.ln;
  // 128·N·r bytes are needed; Node's default ceiling (32 MiB) is exactly that at N = 2^15
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 256 * N * params.r };
  return new Promise<Buffer>((resolve, reject) =>
    scryptCallback(password.normalize("NFC"), salt, keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

const b64 = (buffer: Buffer) => buffer.toString("base64").replace(/=+$/, "");

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const hash = await scrypt(password, salt, KEY_LENGTH, DEFAULT);
  return `$scrypt$ln=${DEFAULT.ln},r=${DEFAULT.r},p=${DEFAULT.p}$${b64(salt)}$${b64(hash)}`;
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Constant-time comparison; a stored value that is not a hash of ours never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = PHC.exec(stored);
  if (!match) return false;
  const [, ln, r, p, salt, hash] = match;
  const params = { ln: Number(ln), r: Number(r), p: Number(p) };
  if (params.ln < 10 || params.ln > 20 || params.r < 1 || params.p < 1) return false;
  const expected = Buffer.from(hash!, "base64");
  const candidate = await scrypt(password, Buffer.from(salt!, "base64"), expected.length, params);
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}

/**
 * A hash of a random password with the current parameters: checked against when the e-mail
 * is unknown, so that answer takes as long as a wrong password.
 */
export function makeDummyHash(): Promise<string> {
  return hashPassword(randomBytes(24).toString("base64"));
}

/** A password-reset token (32 random bytes, base64url) and the SHA-256 kept of it. */
export function newResetToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: resetTokenHash(token) };
}

export const resetTokenHash = (token: string): Buffer =>
  createHash("sha256").update(token, "utf8").digest();
