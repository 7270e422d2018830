import { describe, expect, it } from "vitest";
import { classifyWsfexError, makeWsfexAdapter } from "../../src/wsfex/adapter.js";
import { asmxAnswer, fakeFetch, fakeTickets, xml } from "../../src/testing.js";

const NS = "http://ar.gov.afip.dif.fexv1/";
const caller = { accountId: "a", cuit: "30111111118", environment: "homologacion" as const };
const urls = { homologacion: "http://homo.test/wsfexv1", produccion: "http://prod.test/wsfexv1" };
const OK =
  "<FEXErr><ErrCode>0</ErrCode><ErrMsg>OK</ErrMsg></FEXErr><FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>";
const fexErr = (code: number, msg: string) =>
  `<FEXErr><ErrCode>${code}</ErrCode><ErrMsg>${msg}</ErrMsg></FEXErr>`;

describe("WSFEXv1 classification: authority answer → catalogue code", () => {
  const ctx = { cuit: "30111111118", environment: "homologacion" as const, ptoVta: 5 };
  it.each([
    [
      1001,
      "Usuario no autorizado a realizar esta operacion. ValidacionDeToken: No apareció CUIT en lista de relaciones: 30111111118",
      "REPRESENTADA_NOT_DELEGATED",
    ],
    [
      1000,
      "Usuario no autorizado a realizar esta operacion. ValidacionDeToken: Error al verificar hash: x",
      "AUTHORITY_UNAVAILABLE",
    ],
    [
      1000,
      "Usuario no autorizado a realizar esta operacion. ValidacionDeToken: No validaron las fechas del token",
      "stale-ticket",
    ],
    [
      1000,
      "Usuario no autorizado a realizar esta operacion. ValidacionDeToken: Parametro nulo o vacio (token)",
      "AUTHORITY_UNAVAILABLE",
    ],
    [1607, "El punto de venta informado no es valido", "POINT_OF_SALE_NOT_ENABLED"],
    [1606, "El campo Cbte_Tipo debe ser 19, 20 o 21.", "AUTHORITY_QUERY_REFUSED"],
    [501, "Error interno de base de datos", "AUTHORITY_UNAVAILABLE"],
    [1014, "catch-all", "AUTHORITY_UNAVAILABLE"],
  ])("%i %s → %s", (code, message, expected) => {
    const outcome = classifyWsfexError<never>({ code, message }, ctx);
    const got =
      outcome.kind === "stale-ticket"
        ? "stale-ticket"
        : outcome.result.ok || outcome.result.error.code;
    expect(got).toBe(expected);
  });

  it("calls a hash refusal the mix-up only for a token of the other environment's WSAA", () => {
    const token = (cn: string) =>
      Buffer.from(
        `<sso version="2.0"><id src="CN=${cn}, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239" dst="CN=wsfex, O=AFIP, C=AR"/><operation/></sso>`,
      ).toString("base64");
    const message =
      "Usuario no autorizado a realizar esta operacion. ValidacionDeToken: Error al verificar hash: x";
    const mixed = classifyWsfexError<never>(
      { code: 1000, message },
      { ...ctx, token: token("wsaa") },
    );
    expect(mixed.kind === "done" && !mixed.result.ok && mixed.result.error).toMatchObject({
      code: "CERTIFICATE_ENVIRONMENT_MISMATCH",
      message: "Certificado no emitido por AC de confianza",
    });
    const own = classifyWsfexError<never>(
      { code: 1000, message },
      { ...ctx, token: token("wsaahomo") },
    );
    expect(own.kind).toBe("stale-ticket");
  });
});

describe("WSFEXv1 adapter against a scripted authority", () => {
  it("puts Pto_venta and Cbte_Tipo inside Auth for FEXGetLast_CMP", async () => {
    const { fetch, sent } = fakeFetch(() =>
      xml(
        asmxAnswer(
          NS,
          "FEXGetLast_CMP",
          `<FEXResult_LastCMP><Cbte_nro>12</Cbte_nro><Cbte_fecha>20260101</Cbte_fecha></FEXResult_LastCMP>${OK}`,
        ),
      ),
    );
    const adapter = makeWsfexAdapter({ urls, timeoutMs: 1_000, tickets: fakeTickets(), fetch });
    expect(await adapter.ultimoComprobante(caller, { ptoVta: 5, cbteTipo: 19 })).toEqual({
      ok: true,
      value: 12,
    });
    expect(sent[0]!.soapAction).toBe(`"${NS}FEXGetLast_CMP"`);
    expect(sent[0]!.body).toContain(
      "<Auth><Token>token-1</Token><Sign>sign</Sign><Cuit>30111111118</Cuit><Pto_venta>5</Pto_venta><Cbte_Tipo>19</Cbte_Tipo></Auth>",
    );
  });

  it("asks FEXGetCMP with a lower-case Cbte_tipo and reads 1020 as not found", async () => {
    const { fetch, sent } = fakeFetch(() =>
      xml(
        asmxAnswer(
          NS,
          "FEXGetCMP",
          `<FEXResultGet><Id>0</Id><Cbte_tipo>0</Cbte_tipo></FEXResultGet>${fexErr(1020, "Comprobante inexistente")}`,
        ),
      ),
    );
    const adapter = makeWsfexAdapter({ urls, timeoutMs: 1_000, tickets: fakeTickets(), fetch });
    expect(await adapter.comprobante(caller, { ptoVta: 5, cbteTipo: 19, cbteNro: 3 })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(sent[0]!.body).toContain(
      "<Cmp><Cbte_tipo>19</Cbte_tipo><Punto_vta>5</Punto_vta><Cbte_nro>3</Cbte_nro></Cmp>",
    );
  });

  it("escapes the permit id and reads Status", async () => {
    const { fetch, sent } = fakeFetch(() =>
      xml(
        asmxAnswer(NS, "FEXCheck_Permiso", `<FEXResultGet><Status>OK</Status></FEXResultGet>${OK}`),
      ),
    );
    const adapter = makeWsfexAdapter({ urls, timeoutMs: 1_000, tickets: fakeTickets(), fetch });
    expect(await adapter.permiso(caller, { idPermiso: "1<2/A", dstMerc: 203 })).toEqual({
      ok: true,
      value: "OK",
    });
    expect(sent[0]!.body).toContain("<ID_Permiso>1&lt;2/A</ID_Permiso><Dst_merc>203</Dst_merc>");
  });

  it("answers 502 for a timeout", async () => {
    const { fetch } = fakeFetch(
      ({ url }) =>
        new Promise((_, reject) =>
          setTimeout(() => reject(new DOMException(`timeout ${url}`, "TimeoutError")), 5),
        ),
    );
    const adapter = makeWsfexAdapter({ urls, timeoutMs: 1, tickets: fakeTickets(), fetch });
    const result = await adapter.permiso(caller, { idPermiso: "1/A", dstMerc: 203 });
    expect(result.ok || result.error.code).toBe("AUTHORITY_UNAVAILABLE");
    expect(result.ok || result.error.message).toContain("no respondió");
  });
});
