import { describe, expect, it } from "vitest";
import { certificadoEstado, tokenRelations } from "../../src/domain/cuenta.js";

const now = new Date("2026-11-22T12:00:00Z");
const inDays = (days: number) => new Date(now.getTime() + days * 24 * 60 * 60 * 1000);

describe("certificadoEstado", () => {
  it("calls a CSR alone pendiente", () => {
    expect(certificadoEstado({ status: "pending", not_after: null }, now)).toBe("pendiente");
  });

  it("calls an active certificate por_vencer under 30 days from its end, vencido past it", () => {
    expect(certificadoEstado({ status: "active", not_after: inDays(31) }, now)).toBe("activo");
    expect(certificadoEstado({ status: "active", not_after: inDays(29) }, now)).toBe("por_vencer");
    expect(certificadoEstado({ status: "active", not_after: inDays(-1) }, now)).toBe("vencido");
  });

  it("has nothing to show without a current key", () => {
    expect(certificadoEstado(undefined, now)).toBeUndefined();
    expect(certificadoEstado({ status: "replaced", not_after: inDays(100) }, now)).toBeUndefined();
  });
});

describe("tokenRelations", () => {
  const token = (relations: string) =>
    Buffer.from(
      `<?xml version="1.0"?><sso version="2.0"><id/><operation type="login" value="granted"><login entity="33693450239" service="wsfe" uid="x"><relations>${relations}</relations></login></operation></sso>`,
    ).toString("base64");

  it("lists the CUITs of the ticket's relations", () => {
    expect(
      tokenRelations(
        token('<relation key="20267565393" reltype="4"/><relation key="30712345671" reltype="4"/>'),
      ),
    ).toEqual(["20267565393", "30712345671"]);
  });

  it("answers undefined for a token that is not the authority's XML", () => {
    expect(tokenRelations("opaque")).toBeUndefined();
  });
});
