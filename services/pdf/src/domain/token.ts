import { createHash, randomBytes } from "node:crypto";

/** 256 random bits in base64url: 43 characters nobody can guess or derive from a voucher. */
export const newToken = (): string => randomBytes(32).toString("base64url");

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const isTokenShape = (token: string): boolean => TOKEN.test(token);

/** What is stored for a token: its SHA-256. */
export const tokenHash = (token: string): Buffer => createHash("sha256").update(token).digest();
