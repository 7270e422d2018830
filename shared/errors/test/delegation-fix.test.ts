import { describe, expect, it } from "vitest";
import { delegationFix, WEB_SERVICES } from "../src/index.js";

const target = { alias: "pasarela20111111112ab", cuit: "20111111112" };

describe("delegationFix", () => {
  it("names the service, the computer and the Administrador de Relaciones step for a missing association", () => {
    for (const service of WEB_SERVICES) {
      for (const environment of ["homologacion", "produccion"] as const) {
        const fix = delegationFix("SERVICE_NOT_DELEGATED", { ...target, service, environment });
        expect(fix).toContain(service);
        expect(fix).toContain(target.alias);
        expect(fix).toContain("Administrador de Relaciones de Clave Fiscal → Nueva relación");
      }
    }
    expect(
      delegationFix("SERVICE_NOT_DELEGATED", {
        ...target,
        service: "wsfe",
        environment: "homologacion",
      }),
    ).toContain("WSASS");
  });

  it("tells the represented CUIT to delegate when it is missing from the relations", () => {
    const fix = delegationFix("REPRESENTADA_NOT_DELEGATED", {
      ...target,
      service: "wsfex",
      environment: "produccion",
    });
    expect(fix).toContain(`La CUIT ${target.cuit} debe delegar el servicio`);
    expect(fix).toContain("wsfex");
  });

  it("says an authority failure is to be retried, not configured", () => {
    expect(
      delegationFix("AUTHORITY_UNAVAILABLE", {
        ...target,
        service: "wsfe",
        environment: "produccion",
      }),
    ).toContain("reintentá");
  });
});
