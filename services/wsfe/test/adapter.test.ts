import { describe, expect, it } from "vitest";
import { classifyWsfeError, makeWsfeAdapter } from "../src/adapters/wsfe.js";
import { asmxAnswer, fakeFetch, fakeTickets, xml } from "@pasarela/authority/testing";

const NS = "http://ar.gov.afip.dif.FEV1/";
const caller = { accountId: "a", cuit: "20111111112", environment: "homologacion" as const };
const urls = { homologacion: "http://homo.test/wsfev1", produccion: "http://prod.test/wsfev1" };
/** A TA token as WSAA shapes it, issued by the WSAA named in `cn`. */
const ssoToken = (cn: string) =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sso version="2.0">` +
      `<id src="CN=${cn}, O=AFIP, C=AR, SERIALNUMBER=CUIT 33693450239" dst="CN=wsfe, O=AFIP, C=AR" unique_id="1" gen_time="1" exp_time="2"/>` +
      `<operation type="login" value="granted"><login entity="33693450239" service="wsfe" uid="SERIALNUMBER=CUIT 20111111112, CN=x" authmethod="cms" regmethod="22">` +
      `<relations><relation key="20111111112" reltype="4"/></relations></login></operation></sso>`,
  ).toString("base64");
const err = (code: number, msg: string) =>
  `<PtoVta>0</PtoVta><CbteTipo>0</CbteTipo><CbteNro>0</CbteNro><Errors><Err><Code>${code}</Code><Msg>${msg}</Msg></Err></Errors>`;

describe("WSFEv1 classification: authority answer → catalogue code", () => {
  const ctx = { cuit: "20111111112", environment: "produccion" as const, ptoVta: 3 };
  const codeOf = (code: number, message: string) => {
    const outcome = classifyWsfeError<never>({ code, message }, ctx);
    if (outcome.kind === "stale-ticket") return "stale-ticket";
    return outcome.result.ok ? "ok" : outcome.result.error.code;
  };

  it.each([
    [
      600,
      "ValidacionDeToken: No apareció CUIT en lista de relaciones: 20111111112",
      "REPRESENTADA_NOT_DELEGATED",
    ],
    [
      600,
      "ValidacionDeToken: No validaron las fechas del token GenTime, ExpTime, NowUTC: 1",
      "stale-ticket",
    ],
    [
      600,
      "ValidacionDeToken: No valido Id Sistema: wsfe(Id Sistema de token es: wsfex)",
      "stale-ticket",
    ],
    [600, "ValidacionDeToken: Parametro nulo o vacio (token)", "AUTHORITY_UNAVAILABLE"],
    [
      600,
      "ValidacionDeToken: Error al verificar hash: La firma no corresponde al token",
      "AUTHORITY_UNAVAILABLE",
    ],
    [601, "CUIT representada no incluida en Token", "REPRESENTADA_NOT_DELEGATED"],
    [
      11002,
      "El punto de venta no se encuentra habilitado a usar en el presente WS.",
      "POINT_OF_SALE_NOT_ENABLED",
    ],
    [11001, "Campo CbteTipo invalido.", "AUTHORITY_QUERY_REFUSED"],
    [12000, "Campo MonId no se encuentra habilitado.", "AUTHORITY_QUERY_REFUSED"],
    [500, "Campo Auth no fue ingresado o esta mal formado.", "AUTHORITY_UNAVAILABLE"],
    [501, "Error interno de base de datos", "AUTHORITY_UNAVAILABLE"],
    [502, "Transaccion Activa", "AUTHORITY_UNAVAILABLE"],
    [99999, "algo nuevo", "AUTHORITY_UNAVAILABLE"],
  ])("%i %s → %s", (code, message, expected) => {
    expect(codeOf(code, message)).toBe(expected);
  });

  describe("600 'Error al verificar hash' is told apart by the WSAA that issued the token", () => {
    const hash = "ValidacionDeToken: Error al verificar hash: La firma no corresponde al token";
    const classify = (token: string, message = hash) =>
      classifyWsfeError<never>({ code: 600, message }, { ...ctx, token });

    it("a token of the other environment's WSAA is the mix-up, worded exactly as the catalogue", () => {
      const outcome = classify(ssoToken("wsaahomo"));
      expect(outcome.kind).toBe("done");
      if (outcome.kind !== "done" || outcome.result.ok) return;
      expect(outcome.result.error).toEqual({
        code: "CERTIFICATE_ENVIRONMENT_MISMATCH",
        message: "Certificado no emitido por AC de confianza",
        details: { environment: "produccion", authorityCode: 600, authorityMessage: hash },
      });
    });

    it("a token of this environment's WSAA whose sign fails is worth one fresh TA", () => {
      expect(classify(ssoToken("wsaa")).kind).toBe("stale-ticket");
    });

    it.each([
      ["a garbled token", "%%% not base64 %%%"],
      ["base64 that is not XML", Buffer.from("not xml <<").toString("base64")],
      ["XML that is not a TA", Buffer.from("<root/>").toString("base64")],
      ["a TA of an unknown WSAA", ssoToken("wsaa-desconocido")],
    ])("%s is the authority's or the gateway's failure (502), never the mix-up", (_n, token) => {
      const outcome = classify(
        token,
        "ValidacionDeToken: Error al verificar hash: Token con formato invalido",
      );
      expect(outcome.kind === "done" && !outcome.result.ok && outcome.result.error.code).toBe(
        "AUTHORITY_UNAVAILABLE",
      );
    });

    it("an empty token (Parametro nulo o vacio) is a 502, whoever issued the TA", () => {
      const outcome = classify(
        ssoToken("wsaahomo"),
        "ValidacionDeToken: Parametro nulo o vacio (token)",
      );
      expect(outcome.kind === "done" && !outcome.result.ok && outcome.result.error.code).toBe(
        "AUTHORITY_UNAVAILABLE",
      );
    });
  });

  it("keeps the authority's text in the 11002 message", () => {
    const outcome = classifyWsfeError<never>({ code: 11002, message: "No habilitado." }, ctx);
    expect(outcome.kind === "done" && !outcome.result.ok && outcome.result.error.message).toContain(
      "No habilitado.",
    );
  });
});

describe("WSFEv1 adapter against a scripted authority", () => {
  it("sends qualified elements in WSDL order with the SOAPAction and reads the result", async () => {
    const { fetch, sent } = fakeFetch(() =>
      xml(
        asmxAnswer(
          NS,
          "FECompUltimoAutorizado",
          "<PtoVta>3</PtoVta><CbteTipo>11</CbteTipo><CbteNro>41</CbteNro>",
        ),
      ),
    );
    const tickets = fakeTickets();
    const adapter = makeWsfeAdapter({ urls, timeoutMs: 1_000, tickets, fetch });
    const result = await adapter.ultimoAutorizado(caller, { ptoVta: 3, cbteTipo: 11 });
    expect(result).toEqual({ ok: true, value: 41 });
    expect(sent[0]!.url).toBe(urls.homologacion);
    expect(sent[0]!.soapAction).toBe(`"${NS}FECompUltimoAutorizado"`);
    expect(sent[0]!.body).toContain(
      `<FECompUltimoAutorizado xmlns="${NS}"><Auth><Token>token-1</Token><Sign>sign</Sign><Cuit>20111111112</Cuit></Auth><PtoVta>3</PtoVta><CbteTipo>11</CbteTipo></FECompUltimoAutorizado>`,
    );
  });

  it("drops an expired TA and retries once with a fresh one", async () => {
    const { fetch, sent } = fakeFetch(({ body }) =>
      xml(
        asmxAnswer(
          NS,
          "FECompUltimoAutorizado",
          body.includes("token-1")
            ? err(
                600,
                "ValidacionDeToken: No validaron las fechas del token GenTime, ExpTime, NowUTC: 1",
              )
            : "<PtoVta>3</PtoVta><CbteTipo>11</CbteTipo><CbteNro>7</CbteNro>",
        ),
      ),
    );
    const tickets = fakeTickets();
    const adapter = makeWsfeAdapter({ urls, timeoutMs: 1_000, tickets, fetch });
    expect(await adapter.ultimoAutorizado(caller, { ptoVta: 3, cbteTipo: 11 })).toEqual({
      ok: true,
      value: 7,
    });
    expect(sent).toHaveLength(2);
    expect(tickets.invalidations).toBe(1);
  });

  it("gives up after one retry with a 502, never looping on WSAA", async () => {
    const { fetch, sent } = fakeFetch(() =>
      xml(
        asmxAnswer(
          NS,
          "FECompUltimoAutorizado",
          err(600, "ValidacionDeToken: No validaron las fechas del token"),
        ),
      ),
    );
    const adapter = makeWsfeAdapter({ urls, timeoutMs: 1_000, tickets: fakeTickets(), fetch });
    const result = await adapter.ultimoAutorizado(caller, { ptoVta: 3, cbteTipo: 11 });
    expect(result.ok || result.error.code).toBe("AUTHORITY_UNAVAILABLE");
    expect(sent).toHaveLength(2);
  });

  it.each([
    [
      "a SOAP fault",
      () =>
        xml(
          '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server was unable to read request.</faultstring></soap:Fault></soap:Body></soap:Envelope>',
          500,
        ),
      "SOAP Fault",
    ],
    [
      "an HTML 503",
      () => new Response("<HTML><BODY>Service Unavailable</BODY></HTML>", { status: 503 }),
      "HTTP 503",
    ],
    ["garbage", () => xml("not xml at all <<<"), "ilegible"],
    [
      "a refused connection",
      () =>
        Promise.reject(
          new TypeError("fetch failed", {
            cause: { code: "ECONNREFUSED", message: "connect ECONNREFUSED" },
          }),
        ),
      "inalcanzable",
    ],
  ])("turns %s into a 502 with a useful detail", async (_name, respond, detail) => {
    const { fetch } = fakeFetch(respond);
    const adapter = makeWsfeAdapter({ urls, timeoutMs: 1_000, tickets: fakeTickets(), fetch });
    const result = await adapter.ultimoAutorizado(caller, { ptoVta: 3, cbteTipo: 11 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("AUTHORITY_UNAVAILABLE");
      expect(result.error.message).toContain(detail);
    }
  });

  it("answers 601 as the representada-not-delegated 403 at once, without a retry", async () => {
    const { fetch, sent } = fakeFetch(() =>
      xml(
        asmxAnswer(
          NS,
          "FECompUltimoAutorizado",
          err(601, "CUIT representada no incluida en Token"),
        ),
      ),
    );
    const tickets = fakeTickets();
    const adapter = makeWsfeAdapter({ urls, timeoutMs: 1_000, tickets, fetch });
    const result = await adapter.ultimoAutorizado(caller, { ptoVta: 3, cbteTipo: 11 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("REPRESENTADA_NOT_DELEGATED");
    expect(result.error.message).toContain(caller.cuit);
    expect(result.error.details).toMatchObject({ service: "wsfe", environment: "homologacion" });
    expect(sent).toHaveLength(1);
    expect(tickets.invalidations).toBe(0);
  });

  it("reads 602 as not found and a voucher into numbers", async () => {
    let found = false;
    const { fetch } = fakeFetch(() =>
      xml(
        asmxAnswer(
          NS,
          "FECompConsultar",
          found
            ? "<ResultGet><CbteDesde>5</CbteDesde><CbteHasta>5</CbteHasta><CbteFch>20260101</CbteFch><ImpTotal>122.456</ImpTotal><ImpNeto>101.2</ImpNeto><ImpIVA>21.256</ImpIVA><Resultado>A</Resultado><CodAutorizacion>71234567890123</CodAutorizacion></ResultGet>"
            : "<Errors><Err><Code>602</Code><Msg>No existen datos en nuestros registros para los parametros ingresados.</Msg></Err></Errors>",
        ),
      ),
    );
    const adapter = makeWsfeAdapter({ urls, timeoutMs: 1_000, tickets: fakeTickets(), fetch });
    const query = { ptoVta: 3, cbteTipo: 11, cbteNro: 5 };
    expect(await adapter.consultar(caller, query)).toEqual({ ok: true, value: undefined });
    found = true;
    expect(await adapter.consultar(caller, query)).toEqual({
      ok: true,
      value: {
        codAutorizacion: "71234567890123",
        resultado: "A",
        cbteDesde: 5,
        cbteHasta: 5,
        cbteFch: "20260101",
        impTotal: "122.456",
        impNeto: "101.2",
        impIVA: "21.256",
      },
    });
  });
});
