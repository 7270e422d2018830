import { describe, expect, it } from "vitest";
import {
  appError,
  authorityRejected,
  catalogue,
  classCWithIva,
  inexactNumber,
  issuanceAlicuotaNotAccepted,
  totalsInvalid,
  certificateEnvironmentMismatch,
  invalidField,
  logoInvalid,
  personaInactiva,
  personaNotFound,
  readOnlyKey,
  serviceNotDelegated,
  unsupportedCbteTipo,
  unsupportedCharset,
} from "../src/index.js";

describe("error catalogue", () => {
  it("keeps the product's exact messages", () => {
    expect(catalogue.UNAUTHORIZED.message).toBe("No autorizado");
    expect(catalogue.REPRESENTADA_NOT_FOUND.message).toBe(
      "La representada no existe, no pertenece a tu cuenta o no está registrada en ese entorno",
    );
    expect(catalogue.NO_ACTIVE_CERTIFICATE.message).toBe(
      "La representada no tiene certificado activo en ese entorno",
    );
    expect(catalogue.CLIENTE_NOT_FOUND.message).toBe("Cliente no encontrado");
    expect(catalogue.PRODUCTO_NOT_FOUND.message).toBe("Producto no encontrado");
    expect(catalogue.CLIENTE_DUPLICATE.message).toBe("Ya tenés un cliente con ese documento");
    expect(catalogue.QUOTA_FACTURAS_EXHAUSTED.message).toBe(
      "Cuota de facturas del período agotada",
    );
    expect(catalogue.QUOTA_PADRONES_EXHAUSTED.message).toBe(
      "Cuota de padrones del período agotada",
    );
    expect(catalogue.REJECTION_CAP.message.startsWith("Demasiados comprobantes rechazados")).toBe(
      true,
    );
  });

  it("ends the read-only message by endpoint group", () => {
    expect(readOnlyKey("emision").message).toBe(
      "Esta API key es de solo lectura y no puede emitir comprobantes.",
    );
    expect(readOnlyKey("datos").message).toBe(
      "Esta API key es de solo lectura y no puede modificar datos de la cuenta.",
    );
    expect(readOnlyKey("links").message).toBe(
      "Esta API key es de solo lectura y no puede generar links de cobro.",
    );
  });

  it("names the field, the accepted types and the web service", () => {
    expect(invalidField("representada", "debe tener 11 dígitos").message).toContain("representada");
    expect(unsupportedCbteTipo(99, [19, 20, 21]).message).toContain("19, 20, 21");
    const delegated = serviceNotDelegated("wsfex", "homologacion");
    expect(delegated.message).toContain("wsfex");
    expect(delegated.message).toContain("en homologación");
    expect(delegated.message).toContain("Computador no autorizado a acceder al servicio");
  });

  it("names the logo and what is wrong with it", () => {
    expect(logoInvalid("pesa 300 KB")).toEqual({
      code: "LOGO_INVALID",
      message:
        "El logo debe ser una imagen PNG o JPEG de hasta 200 KB y de hasta 1000 × 1000 píxeles: el archivo pesa 300 KB",
      details: { field: "logo", problem: "pesa 300 KB" },
    });
  });

  it("words the test/production mix-up exactly as the product says it, the authority's text in details", () => {
    expect(certificateEnvironmentMismatch("produccion")).toEqual({
      code: "CERTIFICATE_ENVIRONMENT_MISMATCH",
      message: "Certificado no emitido por AC de confianza",
      details: { environment: "produccion" },
    });
    const fromWsfe = certificateEnvironmentMismatch("homologacion", {
      code: 600,
      message: "ValidacionDeToken: Error al verificar hash: La firma no corresponde al token",
    });
    expect(fromWsfe.message).toBe("Certificado no emitido por AC de confianza");
    expect(fromWsfe.details).toEqual({
      environment: "homologacion",
      authorityCode: 600,
      authorityMessage:
        "ValidacionDeToken: Error al verificar hash: La firma no corresponde al token",
    });
  });

  it("builds fixed-message errors without details unless given", () => {
    expect(appError("UNAUTHORIZED")).toEqual({ code: "UNAUTHORIZED", message: "No autorizado" });
  });

  it("names the field and the rule of a totals rule, and lists the accepted rates", () => {
    expect(totalsInvalid("items", "debe tener al menos un ítem")).toEqual({
      code: "TOTALS_INVALID",
      message: "El campo items debe tener al menos un ítem",
      details: { field: "items", problem: "debe tener al menos un ítem" },
    });
    expect(issuanceAlicuotaNotAccepted("items.0.alicuotaIva", "19").message).toBe(
      'El campo items.0.alicuotaIva tiene una alícuota de IVA no aceptada (19). Alícuotas aceptadas: 0, 2.5, 5, 10.5, 21, 27; para ítems sin IVA, "no_gravado" o "exento"',
    );
    expect(classCWithIva("items.1.alicuotaIva", 11, "21").message).toContain("Enviá alicuotaIva 0");
  });

  it("names the field of a number a double would round, the literal shortened", () => {
    expect(inexactNumber("items.0.cantidad", "1e-400")).toEqual({
      code: "INEXACT_NUMBER",
      message:
        'El campo items.0.cantidad tiene un número (1e-400) que no se puede leer sin redondearlo: enviá hasta 15 dígitos significativos, o el valor como texto decimal ("1.5") donde el campo lo admita',
      details: { field: "items.0.cantidad", literal: "1e-400" },
    });
    const long = inexactNumber("docNro", "1".repeat(5000));
    expect(long.details).toEqual({ field: "docNro", literal: `${"1".repeat(40)}…` });
    expect(long.message.length).toBeLessThan(300);
    expect(catalogue.INEXACT_NUMBER.kind).toBe("invalid");
  });

  it("names the charset of a body that is not UTF-8, as the one 415 kind", () => {
    expect(unsupportedCharset("latin1")).toEqual({
      code: "UNSUPPORTED_CHARSET",
      message:
        "El cuerpo de la solicitud debe estar codificado en UTF-8: Content-Type declara charset=latin1; enviá el JSON en UTF-8 (charset=utf-8, o sin charset)",
      details: { charset: "latin1" },
    });
    expect(catalogue.UNSUPPORTED_CHARSET.kind).toBe("unsupported_media_type");
  });

  it("quotes the authority's rejection and adds the hints for 10016 and 11002", () => {
    const rejected = authorityRejected({
      errores: [{ code: 10016, msg: "El numero o fecha del comprobante no se corresponde" }],
      observaciones: [{ code: 10048, msg: "ImpTotal" }],
    });
    expect(rejected.code).toBe("AUTHORITY_REJECTED");
    expect(rejected.message).toMatch(/^La AFIP rechazó el comprobante: 10016 El numero/);
    expect(rejected.message).toContain("/api/wsfe/ultimo-comprobante");
    expect(rejected.message).toContain("el intento anterior se emitió");
    expect(rejected.details).toEqual({
      resultado: "R",
      observaciones: [{ code: 10048, msg: "ImpTotal" }],
      errores: [{ code: 10016, msg: "El numero o fecha del comprobante no se corresponde" }],
    });
    const pos = authorityRejected({ errores: [{ code: 11002, msg: "x" }], observaciones: [] });
    expect(pos.message).toContain("modalidad web services");
    expect(authorityRejected({ errores: [], observaciones: [] }).message).toBe(
      "La AFIP rechazó el comprobante",
    );
  });
});

describe("registry lookups", () => {
  it("answers an unknown person with the registry's text, the id and service in details", () => {
    expect(personaNotFound("20444555662", "ws_sr_padron_a13")).toEqual({
      code: "PERSONA_NOT_FOUND",
      message: "No existe persona con ese Id",
      details: { idPersona: "20444555662", service: "ws_sr_padron_a13" },
    });
    expect(catalogue.PERSONA_NOT_FOUND.kind).toBe("not_found");
  });

  it("names the inactive key and where it is still shown", () => {
    const inactive = personaInactiva(
      "20251112224",
      "ws_sr_padron_a10",
      "La clave (CUIT/CUIL) consultada se encuentra INACTIVA",
    );
    expect(inactive.code).toBe("PERSONA_INACTIVA");
    expect(inactive.message).toContain("20251112224");
    expect(inactive.message).toContain("/api/padron/constancia");
    expect(inactive.details).toMatchObject({
      idPersona: "20251112224",
      service: "ws_sr_padron_a10",
    });
  });
});
