import { describe, expect, it } from "vitest";
import {
  hashPassword,
  newResetToken,
  resetTokenHash,
  verifyPassword,
} from "../../src/domain/passwords.js";

describe("dashboard passwords (scrypt)", () => {
  it("keeps the parameters and a random salt with each hash", async () => {
    const a = await hashPassword("una clave larga 123");
    const b = await hashPassword("una clave larga 123");
    expect(a).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("una clave larga 123", a)).toBe(true);
    expect(await verifyPassword("una clave larga 124", a)).toBe(false);
  });

  it("verifies a hash made with other parameters, and never matches a malformed one", async () => {
    const stored = await hashPassword("clave con ñ y tilde á");
    // the same password typed with combining accents is the same password (NFC)
    expect(await verifyPassword("clave con n\u0303 y tilde a\u0301", stored)).toBe(true);
    const lighter = stored.replace("ln=15", "ln=14");
    expect(await verifyPassword("clave con ñ y tilde á", lighter)).toBe(false);
    for (const bad of ["", "texto", "$scrypt$ln=40,r=8,p=1$AAAA$AAAA", stored.slice(0, -5)]) {
      expect(await verifyPassword("x", bad)).toBe(false);
    }
  });

  it("keeps only the SHA-256 of a reset token, never the token itself", () => {
    const { token, hash } = newResetToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).toEqual(resetTokenHash(token));
    expect(hash.length).toBe(32);
    expect(newResetToken().token).not.toBe(token);
  });
});
