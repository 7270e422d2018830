import { describe, expect, it } from "vitest";
import { authorityRejected, authorityUnavailable, issuanceOutcomeUnknown } from "../src/index.js";

const voucher = { ptoVta: 3, cbteTipo: 1, cbteNro: 8 };

describe("issuance answers of the authority", () => {
  it("a rejection quotes the authority and carries resultado, observaciones and errores", () => {
    const error = authorityRejected(voucher, {
      observaciones: [{ code: 10048, msg: "ImpTotal no cierra" }],
      errores: [],
    });
    expect(error.code).toBe("AUTHORITY_REJECTED");
    expect(error.message).toBe("La AFIP rechazó el comprobante (10048: ImpTotal no cierra).");
    expect(error.details).toEqual({
      resultado: "R",
      observaciones: [{ code: 10048, msg: "ImpTotal no cierra" }],
      errores: [],
      ptoVta: 3,
      cbteTipo: 1,
      cbteNro: 8,
    });
  });

  it("10016 says to query the last voucher and that after a retry the first attempt was probably issued", () => {
    const { message } = authorityRejected(voucher, {
      observaciones: [],
      errores: [{ code: 10016, msg: "El numero o fecha del comprobante no se corresponde" }],
    });
    expect(message).toContain("/api/wsfe/ultimo-comprobante");
    expect(message).toContain("probablemente el intento anterior se emitió");
  });

  it.each([11002, 10005])(
    "%i says the point of sale must be declared with the web-services modality",
    (code) => {
      const { message } = authorityRejected(voucher, {
        observaciones: [],
        errores: [{ code, msg: "no habilitado" }],
      });
      expect(message).toContain('modalidad "web services"');
      expect(message).not.toContain("ultimo-comprobante");
    },
  );

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
