import { describe, expect, it } from "vitest";
import { attachedError, wsfe, wsfex } from "../../src/index.js";

const common = { environment: "homologacion", representada: "20111111112", ptoVta: 5 };

/** What either side of the contract answers for this request: nothing, or the first issue. */
function refusal(schema: { safeParse: (v: unknown) => unknown }, body: Record<string, unknown>) {
  const parsed = schema.safeParse(body) as {
    success: boolean;
    error?: { issues: { code: string; params?: unknown }[] };
  };
  if (parsed.success) return undefined;
  return attachedError(parsed.error!.issues[0]!);
}

describe("cbteTipo accepted by each web service: one definition in the contracts", () => {
  it("refuses a type WSFEv1 does not take with the 400 listing the domestic types", () => {
    for (const [contract, body] of [
      [wsfe.ultimoComprobanteLast, common],
      [wsfe.comprobanteGet, { ...common, cbteNro: 1 }],
    ] as const) {
      expect(contract.request.safeParse({ ...body, cbteTipo: 11 }).success).toBe(true);
      expect(refusal(contract.request, { ...body, cbteTipo: 19 })).toEqual({
        code: "UNSUPPORTED_CBTE_TIPO",
        message: `cbteTipo 19 no soportado. Tipos aceptados: ${wsfe.WSFE_CBTE_TIPOS.join(", ")}`,
        details: { field: "cbteTipo", accepted: wsfe.WSFE_CBTE_TIPOS },
      });
    }
  });

  it("refuses a type WSFEXv1 does not take with the 400 listing 19, 20, 21", () => {
    for (const [contract, body] of [
      [wsfex.ultimoComprobanteLast, common],
      [wsfex.comprobanteGet, { ...common, cbteNro: 1 }],
    ] as const) {
      expect(contract.request.safeParse({ ...body, cbteTipo: 19 }).success).toBe(true);
      expect(refusal(contract.request, { ...body, cbteTipo: 11 })).toEqual({
        code: "UNSUPPORTED_CBTE_TIPO",
        message: "cbteTipo 11 no soportado. Tipos aceptados: 19, 20, 21",
        details: { field: "cbteTipo", accepted: [19, 20, 21] },
      });
    }
  });

  it("leaves a cbteTipo that is not an integer to the field rules", () => {
    const issues = wsfex.ultimoComprobanteLast.request.safeParse({ ...common, cbteTipo: "19" })
      .error?.issues;
    expect(issues?.[0]?.code).toBe("invalid_type");
    expect(attachedError(issues![0]!)).toBeUndefined();
  });

  it("attaches nothing to an issue that does not carry a catalogue error", () => {
    expect(attachedError({ code: "custom", params: { appError: { code: "NOPE" } } })).toBe(
      undefined,
    );
    expect(attachedError({ code: "invalid_type" })).toBeUndefined();
  });
});
