import { asmxAnswer, fakeFetch, fakeTickets, xml } from "@pasarela/authority/testing";
import { describe, expect, it } from "vitest";
import { detalleXml, makeWsfeAdapter, type CaeOutcome } from "../src/adapters/wsfe.js";
import type { FECAEDetRequest } from "../src/domain/issuance/index.js";

const NS = "http://ar.gov.afip.dif.FEV1/";
const caller = { accountId: "a", cuit: "20111111112", environment: "homologacion" as const };
const urls = { homologacion: "http://homo.test/wsfev1", produccion: "http://prod.test/wsfev1" };

/** A recorded valid request of the authority, with every optional block. */
const detalle: FECAEDetRequest = {
  Concepto: 3,
  DocTipo: 80,
  DocNro: "30000000007",
  CbteDesde: 1836,
  CbteHasta: 1836,
  CbteFch: "20210701",
  ImpTotal: "122.00",
  ImpTotConc: "0.00",
  ImpNeto: "100.00",
  ImpOpEx: "0.00",
  ImpTrib: "1.00",
  ImpIVA: "21.00",
  FchServDesde: "20210601",
  FchServHasta: "20210630",
  FchVtoPago: "20210710",
  MonId: "PES",
  MonCotiz: "1",
  CanMisMonExt: "N",
  CondicionIVAReceptorId: 1,
  CbtesAsoc: [{ Tipo: 1, PtoVta: 4000, Nro: 1835, Cuit: "30000000007", CbteFch: "20210630" }],
  Tributos: [
    { Id: 99, Desc: "Impuesto <municipal>", BaseImp: "100.00", Alic: "1", Importe: "1.00" },
  ],
  Iva: [{ Id: 5, BaseImp: "100.00", Importe: "21.00" }],
  Opcionales: [{ Id: "2101", Valor: "0000000000000000000001" }],
};

const header = (resultado: string) =>
  `<FeCabResp><Cuit>20111111112</Cuit><PtoVta>4000</PtoVta><CbteTipo>1</CbteTipo>` +
  `<FchProceso>20210701120000</FchProceso><CantReg>1</CantReg><Resultado>${resultado}</Resultado>` +
  `<Reproceso>N</Reproceso></FeCabResp>`;
const det = (resultado: string, inner = "", cae = "", vto = "") =>
  `<FeDetResp><FECAEDetResponse><Concepto>3</Concepto><DocTipo>80</DocTipo><DocNro>30000000007</DocNro>` +
  `<CbteDesde>1836</CbteDesde><CbteHasta>1836</CbteHasta><CbteFch>20210701</CbteFch>` +
  `<Resultado>${resultado}</Resultado>${inner}<CAE>${cae}</CAE><CAEFchVto>${vto}</CAEFchVto>` +
  `</FECAEDetResponse></FeDetResp>`;
const errors = (code: number, msg: string) =>
  `<Errors><Err><Code>${code}</Code><Msg>${msg}</Msg></Err></Errors>`;

async function solicitarWith(answer: (body: string) => Response | Promise<Response>) {
  const { fetch, sent } = fakeFetch(({ body }) => answer(body));
  const tickets = fakeTickets();
  const adapter = makeWsfeAdapter({ urls, timeoutMs: 200, tickets, fetch });
  const outcome = await adapter.solicitar(caller, {
    ptoVta: 4000,
    cbteTipo: 1,
    detalles: [detalle],
  });
  return { outcome, sent, tickets };
}

const answered = (inner: string) => () => xml(asmxAnswer(NS, "FECAESolicitar", inner));
const kindOf = (outcome: CaeOutcome) =>
  outcome.kind === "judged" ? outcome.kind : `${outcome.kind}:${outcome.error.code}`;

describe("FECAESolicitar request text", () => {
  it("writes the detail's elements in exact WSDL order, escaped, omitting absent optionals", () => {
    const text = detalleXml(detalle);
    const elements = [...text.matchAll(/<([A-Za-z]+)>/g)].map((m) => m[1]);
    expect(elements).toEqual([
      "FECAEDetRequest",
      "Concepto",
      "DocTipo",
      "DocNro",
      "CbteDesde",
      "CbteHasta",
      "CbteFch",
      "ImpTotal",
      "ImpTotConc",
      "ImpNeto",
      "ImpOpEx",
      "ImpTrib",
      "ImpIVA",
      "FchServDesde",
      "FchServHasta",
      "FchVtoPago",
      "MonId",
      "MonCotiz",
      "CanMisMonExt",
      "CondicionIVAReceptorId",
      "CbtesAsoc",
      "CbteAsoc",
      "Tipo",
      "PtoVta",
      "Nro",
      "Cuit",
      "CbteFch",
      "Tributos",
      "Tributo",
      "Id",
      "Desc",
      "BaseImp",
      "Alic",
      "Importe",
      "Iva",
      "AlicIva",
      "Id",
      "BaseImp",
      "Importe",
      "Opcionales",
      "Opcional",
      "Id",
      "Valor",
    ]);
    expect(text).toContain("<Desc>Impuesto &lt;municipal&gt;</Desc>");
    // amounts leave exactly as the decimal text the gateway computed
    expect(text).toContain("<ImpTotal>122.00</ImpTotal>");
    const {
      FchServDesde: _d,
      FchServHasta: _h,
      FchVtoPago: _v,
      CanMisMonExt: _c,
      CbtesAsoc: _a,
      Iva: _i,
      Opcionales: _o,
      ...required
    } = detalle;
    const bare = detalleXml({ ...required, Tributos: [] });
    expect(bare).not.toMatch(/FchServ|FchVtoPago|CanMisMonExt|CbtesAsoc|Tributos|Iva>|Opcionales/);
  });

  it("sends the header with CantReg, the series and the TA under the SOAPAction", async () => {
    const { sent } = await solicitarWith(
      answered(`${header("A")}${det("A", "", "71263951827464", "20210711")}`),
    );
    expect(sent[0]!.soapAction).toBe(`"${NS}FECAESolicitar"`);
    expect(sent[0]!.body).toContain(
      `<FECAESolicitar xmlns="${NS}"><Auth><Token>token-1</Token><Sign>sign</Sign><Cuit>20111111112</Cuit></Auth>` +
        `<FeCAEReq><FeCabReq><CantReg>1</CantReg><PtoVta>4000</PtoVta><CbteTipo>1</CbteTipo></FeCabReq>` +
        `<FeDetReq>${detalleXml(detalle)}</FeDetReq></FeCAEReq></FECAESolicitar>`,
    );
  });
});

describe("FECAESolicitar answers", () => {
  it("an approval carries the CAE, its due date, observations and events", async () => {
    const { outcome } = await solicitarWith(
      answered(
        `${header("A")}${det(
          "A",
          "<Observaciones><Obs><Code>10217</Code><Msg>El credito fiscal discriminado…</Msg></Obs></Observaciones>",
          "71263951827464",
          "20210711",
        )}<Events><Evt><Code>41</Code><Msg>IMPORTANTE</Msg></Evt></Events>`,
      ),
    );
    expect(outcome).toEqual({
      kind: "judged",
      resultado: "A",
      detalles: [
        {
          cbteDesde: 1836,
          cbteHasta: 1836,
          cbteFch: "20210701",
          resultado: "A",
          cae: "71263951827464",
          caeFchVto: "20210711",
          observaciones: [{ code: 10217, msg: "El credito fiscal discriminado…" }],
        },
      ],
      errores: [],
      eventos: [{ code: 41, msg: "IMPORTANTE" }],
    });
  });

  it("a rejection is judged: the detail's Obs and the header's Errors (10016) come back as data", async () => {
    const { outcome } = await solicitarWith(
      answered(
        `${header("R")}${det("R", "<Observaciones><Obs><Code>10048</Code><Msg>ImpTotal</Msg></Obs></Observaciones>")}` +
          errors(
            10016,
            "El numero o fecha del comprobante no se corresponde con el proximo a autorizar.",
          ),
      ),
    );
    expect(outcome.kind).toBe("judged");
    if (outcome.kind !== "judged") return;
    expect(outcome.resultado).toBe("R");
    expect(outcome.detalles[0]).toMatchObject({
      resultado: "R",
      cae: "",
      observaciones: [{ code: 10048, msg: "ImpTotal" }],
    });
    expect(outcome.errores).toEqual([
      {
        code: 10016,
        msg: "El numero o fecha del comprobante no se corresponde con el proximo a autorizar.",
      },
    ]);
  });

  it.each([
    ["501 (database)", errors(501, "Error interno de base de datos")],
    ["502 (Transacción Activa)", errors(502, "Transaccion Activa")],
    ["500 (internal)", errors(500, "Error interno de aplicacion")],
    ["an internal error beside a header", `${header("R")}${det("R")}${errors(502, "x")}`],
    ["neither header nor errors", ""],
    ["an A without a 14-digit CAE", `${header("A")}${det("A", "", "123", "20210711")}`],
    ["no detail", header("A")],
  ])("%s is an unknown outcome (502), never 'not issued'", async (_name, inner) => {
    const { outcome } = await solicitarWith(answered(inner));
    expect(kindOf(outcome)).toBe("unknown:AUTHORITY_UNAVAILABLE");
  });

  it.each([
    ["an HTTP 503", () => new Response("<HTML>Service Unavailable</HTML>", { status: 503 })],
    ["garbage", () => xml("not xml <<<")],
    [
      "a SOAP fault",
      () =>
        xml(
          '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>boom</faultstring></soap:Fault></soap:Body></soap:Envelope>',
          500,
        ),
    ],
    [
      "a dropped connection",
      () => Promise.reject(new TypeError("fetch failed", { cause: { code: "ECONNRESET" } })),
    ],
    [
      "a timeout",
      () =>
        new Promise<Response>((_resolve, reject) =>
          setTimeout(
            () => reject(Object.assign(new Error("aborted"), { name: "TimeoutError" })),
            20,
          ),
        ),
    ],
  ])("after sending, %s is an unknown outcome", async (_name, respond) => {
    const { outcome } = await solicitarWith(respond);
    expect(kindOf(outcome)).toBe("unknown:AUTHORITY_UNAVAILABLE");
  });

  it("a TA the authority refuses is replaced once and the voucher sent again: it was not judged", async () => {
    const { outcome, sent, tickets } = await solicitarWith((body) =>
      xml(
        asmxAnswer(
          NS,
          "FECAESolicitar",
          body.includes("token-1")
            ? errors(600, "ValidacionDeToken: No validaron las fechas del token GenTime, ExpTime")
            : `${header("A")}${det("A", "", "71263951827464", "20210711")}`,
        ),
      ),
    );
    expect(outcome.kind).toBe("judged");
    expect(sent).toHaveLength(2);
    expect(tickets.invalidations).toBe(1);
  });

  it("a representada outside the token's relations is refused (403): nothing was issued", async () => {
    const { outcome } = await solicitarWith(
      answered(
        errors(600, "ValidacionDeToken: No apareció CUIT en lista de relaciones: 20111111112"),
      ),
    );
    expect(kindOf(outcome)).toBe("refused:REPRESENTADA_NOT_DELEGATED");
  });

  it("a token refused twice is refused, not unknown: the authority never judged it", async () => {
    const { outcome, sent } = await solicitarWith(
      answered(errors(600, "ValidacionDeToken: No validaron las fechas del token")),
    );
    expect(kindOf(outcome)).toBe("refused:AUTHORITY_UNAVAILABLE");
    expect(sent).toHaveLength(2);
  });
});
