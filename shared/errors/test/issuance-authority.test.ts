import { describe, expect, it } from "vitest";
import { authorityUnavailable, issuanceOutcomeUnknown } from "../src/index.js";

const voucher = { ptoVta: 3, cbteTipo: 1, cbteNro: 8 };

describe("issuance answers of the authority", () => {
  it("an unknown outcome is a 502 that never reads as 'not issued'", () => {
    const error = issuanceOutcomeUnknown(
      voucher,
      authorityUnavailable("WSFE no respondió en 30000 ms"),
    );
    expect(error.code).toBe("AUTHORITY_UNAVAILABLE");
    expect(error.message).toContain("1-3-8 pudo haber sido autorizado");
    expect(error.details).toMatchObject({ outcome: "unknown", cbteNro: 8 });
  });
});
