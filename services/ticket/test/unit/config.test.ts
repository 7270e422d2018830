import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/index.js";

describe("ticket configuration", () => {
  it("refuses to start without a key-encryption key, naming the variable", () => {
    expect(() => loadConfig({})).toThrow(/KEY_ENCRYPTION_KEY \(not set\)/);
  });

  it("refuses a key-encryption key that is not 32 bytes of base64", () => {
    expect(() => loadConfig({ KEY_ENCRYPTION_KEY: Buffer.alloc(16).toString("base64") })).toThrow(
      /KEY_ENCRYPTION_KEY \(invalid\)/,
    );
  });

  it("takes the WSAA URLs per environment and defaults to the authority's hosts", () => {
    const config = loadConfig({ KEY_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString("base64") });
    expect(config.WSAA_URL_HOMOLOGACION).toBe("https://wsaahomo.afip.gov.ar/ws/services/LoginCms");
    expect(config.WSAA_URL_PRODUCCION).toBe("https://wsaa.afip.gov.ar/ws/services/LoginCms");
    expect(config.TA_REFRESH_AHEAD_MS).toBe(300_000);
  });
});
