import * as soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import {
  FE_NS,
  arToday,
  asmx,
  authXml,
  login,
  makeControlClient,
  makeIdentity,
  resultOf,
  soapCall,
} from "./helpers.js";
import type { Ta } from "./helpers.js";
import { detail, errXml, obsCodes, plusDays, RECORDED_RECEIVER } from "./fe-helpers.js";
import type { Det } from "./fe-helpers.js";

const CUIT = "20222222223";
const DELEGATOR = "30722222225";
const STRANGER = "20333333334";
const RECEIVER = RECORDED_RECEIVER;

let sim: Simulator;
let control: ControlClient;
let ta: Ta;
let fexTa: Ta;
let url: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  control = makeControlClient(sim.url);
  url = sim.endpoints("homologacion").wsfe;
  const id = await makeIdentity(control, "homologacion", CUIT, "fe", ["wsfe", "wsfex"]);
  await control.delegate("homologacion", { cuit: DELEGATOR, alias: "fe", service: "wsfe" });
  for (const pto of [3, 4000, 5, 6, 7, 8]) {
    await control.enablePointOfSale("homologacion", { cuit: CUIT, ptoVta: pto });
  }
  await control.enablePointOfSale("homologacion", { cuit: DELEGATOR, ptoVta: 2 });
  ta = await login(sim, "homologacion", id, "wsfe");
  fexTa = await login(sim, "homologacion", id, "wsfex");
});

afterAll(async () => {
  await sim.close();
});

const call = (op: string, inner: string, version: "1.1" | "1.2" = "1.1") =>
  asmx(url, FE_NS, op, inner, version);

const ENVELOPE_HEAD =
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
  '<soap:Header><FEHeaderInfo xmlns="http://ar.gov.afip.dif.FEV1/"><ambiente>HomologacionExterno - efa</ambiente>' +
  "<fecha>FECHA</fecha><id>4.3.0.0</id></FEHeaderInfo></soap:Header><soap:Body>";

function normalizeFecha(text: string): string {
  return text.replace(/<fecha>[^<]+<\/fecha>/, "<fecha>FECHA</fecha>");
}

function solicitar(pto: number, tipo: number, dets: string[], cantReg = dets.length, cuit = CUIT) {
  return call(
    "FECAESolicitar",
    `${authXml(ta, cuit)}<FeCAEReq><FeCabReq><CantReg>${cantReg}</CantReg><PtoVta>${pto}</PtoVta>` +
      `<CbteTipo>${tipo}</CbteTipo></FeCabReq><FeDetReq>${dets.join("")}</FeDetReq></FeCAEReq>`,
  );
}

async function ultimo(pto: number, tipo: number, cuit = CUIT, t: Ta = ta): Promise<string> {
  const res = await call(
    "FECompUltimoAutorizado",
    `${authXml(t, cuit)}<PtoVta>${pto}</PtoVta><CbteTipo>${tipo}</CbteTipo>`,
  );
  return resultOf(res.text, "FECompUltimoAutorizado");
}

describe("WSFEv1 dialect", () => {
  it("FEDummy over SOAP 1.1 returns the recorded envelope", async () => {
    const res = await call("FEDummy", "");
    expect(res.status).toBe(200);
    expect(res.contentType).toBe("text/xml; charset=utf-8");
    expect(res.text).toMatch(/<fecha>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}-03:00<\/fecha>/);
    expect(normalizeFecha(res.text)).toBe(
      `${ENVELOPE_HEAD}<FEDummyResponse xmlns="http://ar.gov.afip.dif.FEV1/"><FEDummyResult>` +
        "<AppServer>OK</AppServer><DbServer>OK</DbServer><AuthServer>OK</AuthServer>" +
        "</FEDummyResult></FEDummyResponse></soap:Body></soap:Envelope>",
    );
  });

  it("answers SOAP 1.2 requests (action in Content-Type) in SOAP 1.2", async () => {
    const res = await call(
      "FECompUltimoAutorizado",
      `${authXml(ta, CUIT)}<PtoVta>3</PtoVta><CbteTipo>11</CbteTipo>`,
      "1.2",
    );
    expect(res.status).toBe(200);
    expect(res.contentType).toBe("application/soap+xml; charset=utf-8");
    expect(res.text).toContain(
      '<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"',
    );
    expect(resultOf(res.text, "FECompUltimoAutorizado")).toBe(
      "<PtoVta>3</PtoVta><CbteTipo>11</CbteTipo><CbteNro>0</CbteNro>",
    );
  });

  it("faults an unknown SOAPAction with HTTP 500 soap:Client", async () => {
    const res = await asmx(url, FE_NS, "FEDummy", "", "1.1", { action: `${FE_NS}FENoExiste` });
    expect(res.status).toBe(500);
    expect(res.text).toBe(
      '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
        "<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server did not recognize the value of " +
        "HTTP Header SOAPAction: http://ar.gov.afip.dif.FEV1/FENoExiste.</faultstring><detail /></soap:Fault>" +
        "</soap:Body></soap:Envelope>",
    );
  });

  it("routes SOAP 1.2 without an action by the body element, but not SOAP 1.1 without SOAPAction", async () => {
    const envelope = (ns: string) =>
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body>` +
      `<FEDummy xmlns="${FE_NS}" /></soap:Body></soap:Envelope>`;
    const r12 = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/soap+xml; charset=utf-8" },
      body: envelope("http://www.w3.org/2003/05/soap-envelope"),
    });
    expect(r12.status).toBe(200);
    expect(await r12.text()).toContain("<FEDummyResult><AppServer>OK</AppServer>");
    const r11 = await fetch(url, {
      method: "POST",
      headers: { "content-type": "text/xml; charset=utf-8" },
      body: envelope("http://schemas.xmlsoap.org/soap/envelope/"),
    });
    expect(r11.status).toBe(500);
    expect(await r11.text()).toContain(
      "<faultstring>Server did not recognize the value of HTTP Header SOAPAction: .</faultstring>",
    );
  });

  it("faults unreadable bodies and non-numeric numbers with 'Server was unable to read request'", async () => {
    for (const rawBody of ["<soap:Envelope", "not xml", ""]) {
      const res = await asmx(url, FE_NS, "FEDummy", "", "1.1", { rawBody });
      expect(res.status).toBe(500);
      expect(res.text).toMatch(
        /<faultcode>soap:Client<\/faultcode><faultstring>Server was unable to read request\. ---&gt; /,
      );
    }
    const res = await call(
      "FECompUltimoAutorizado",
      `${authXml(ta, CUIT)}<PtoVta>tres</PtoVta><CbteTipo>1</CbteTipo>`,
    );
    expect(res.status).toBe(500);
    expect(res.text).toContain("Input string was not in a correct format.");
    const res12 = await call(
      "FECompUltimoAutorizado",
      `${authXml(ta, CUIT)}<PtoVta>x</PtoVta>`,
      "1.2",
    );
    expect(res12.status).toBe(500);
    expect(res12.text).toContain("<soap:Value>soap:Sender</soap:Value>");
  });

  it("answers Err 500 for a missing Auth, and ignores unqualified elements", async () => {
    const missing = await call("FECompTotXRequest", "");
    expect(resultOf(missing.text, "FECompTotXRequest")).toBe(
      `<RegXReq>0</RegXReq>${errXml(500, "Campo Auth no fue ingresado o esta mal formado.")}`,
    );
    const unqualified = await call(
      "FECompTotXRequest",
      `<Auth xmlns=""><Token>${ta.token}</Token><Sign>${ta.sign}</Sign><Cuit>${CUIT}</Cuit></Auth>`,
    );
    expect(unqualified.text).toContain("<Code>500</Code>");
  });

  it("checks the token in order with code 600 and the real messages", async () => {
    const tampered = { ...ta, sign: Buffer.from("x".repeat(32)).toString("base64") };
    expect(await ultimo(3, 1, CUIT, tampered)).toMatch(
      /^<PtoVta>0<\/PtoVta><CbteTipo>0<\/CbteTipo><CbteNro>0<\/CbteNro><Errors><Err><Code>600<\/Code><Msg>ValidacionDeToken: Error al verificar hash: [^<]+<\/Msg><\/Err><\/Errors>$/,
    );
    expect(await ultimo(3, 1, CUIT, fexTa)).toContain(
      "<Msg>ValidacionDeToken: No valido Id Sistema: wsfe(Id Sistema de token es: wsfex)</Msg>",
    );
    const rel = await ultimo(3, 1, STRANGER);
    expect(rel).toContain(
      `<Code>600</Code><Msg>ValidacionDeToken: No apareció CUIT en lista de relaciones: ${STRANGER}</Msg>`,
    );
    expect(await ultimo(2, 1, DELEGATOR)).toBe(
      "<PtoVta>2</PtoVta><CbteTipo>1</CbteTipo><CbteNro>0</CbteNro>",
    );
    await control.settings("homologacion", { clockOffsetMs: 13 * 3600_000 });
    try {
      expect(await ultimo(3, 1)).toMatch(
        /<Code>600<\/Code><Msg>ValidacionDeToken: No validaron las fechas del token GenTime, ExpTime, NowUTC: \d+ \(\d+\/\d+\/\d{4} \d+:\d\d:\d\d [AP]M\), \d+ \(\d+\/\d+\/\d{4} \d+:\d\d:\d\d [AP]M\), \d+\/\d+\/\d{4} \d+:\d\d:\d\d [AP]M<\/Msg>/,
      );
    } finally {
      await control.settings("homologacion", { clockOffsetMs: 0 });
    }
    const empty = await call(
      "FECompTotXRequest",
      `<Auth><Token></Token><Sign></Sign><Cuit>${CUIT}</Cuit></Auth>`,
    );
    expect(empty.text).toContain("ValidacionDeToken: Parametro nulo o vacio (token)");
  });
});

describe("WSFEv1 operations", () => {
  it("FECompUltimoAutorizado: 11002 with zeros for a point of sale not enabled (point 1)", async () => {
    expect(await ultimo(1, 1)).toBe(
      "<PtoVta>0</PtoVta><CbteTipo>0</CbteTipo><CbteNro>0</CbteNro><Errors><Err><Code>11002</Code>" +
        "<Msg>El punto de venta no se encuentra habilitado a usar en el presente WS. Consultar metodo FEParamGetPtosVenta.</Msg></Err></Errors>",
    );
  });

  it("FECAESolicitar authorizes the recorded voucher; FECompConsultar returns it; resending is 10016", async () => {
    const today = arToday();
    const res = await solicitar(4000, 1, [detail(1)]);
    const result = resultOf(res.text, "FECAESolicitar");
    const cae = /<CAE>(\d{14})<\/CAE>/.exec(result)?.[1];
    expect(cae).toBeDefined();
    expect(result).toMatch(
      new RegExp(
        `^<FeCabResp><Cuit>${CUIT}</Cuit><PtoVta>4000</PtoVta><CbteTipo>1</CbteTipo><FchProceso>\\d{14}</FchProceso>` +
          `<CantReg>1</CantReg><Resultado>A</Resultado><Reproceso>N</Reproceso></FeCabResp><FeDetResp><FECAEDetResponse>` +
          `<Concepto>1</Concepto><DocTipo>80</DocTipo><DocNro>${RECEIVER}</DocNro><CbteDesde>1</CbteDesde><CbteHasta>1</CbteHasta>` +
          `<CbteFch>${today}</CbteFch><Resultado>A</Resultado><CAE>\\d{14}</CAE><CAEFchVto>${plusDays(today, 10)}</CAEFchVto>` +
          `</FECAEDetResponse></FeDetResp>$`,
      ),
    );
    expect(await ultimo(4000, 1)).toBe(
      "<PtoVta>4000</PtoVta><CbteTipo>1</CbteTipo><CbteNro>1</CbteNro>",
    );

    const cons = await call(
      "FECompConsultar",
      `${authXml(ta, CUIT)}<FeCompConsReq><CbteTipo>1</CbteTipo><CbteNro>1</CbteNro><PtoVta>4000</PtoVta></FeCompConsReq>`,
    );
    expect(resultOf(cons.text, "FECompConsultar")).toMatch(
      new RegExp(
        `^<ResultGet><Concepto>1</Concepto><DocTipo>80</DocTipo><DocNro>${RECEIVER}</DocNro><CbteDesde>1</CbteDesde>` +
          `<CbteHasta>1</CbteHasta><CbteFch>${today}</CbteFch><ImpTotal>122</ImpTotal><ImpTotConc>0</ImpTotConc>` +
          `<ImpNeto>100</ImpNeto><ImpOpEx>0</ImpOpEx><ImpTrib>1</ImpTrib><ImpIVA>21</ImpIVA><FchServDesde /><FchServHasta />` +
          `<FchVtoPago /><MonId>PES</MonId><MonCotiz>1</MonCotiz><CondicionIVAReceptorId>1</CondicionIVAReceptorId>` +
          `<Tributos><Tributo><Id>99</Id><Desc>Impuesto Municipal Matanza</Desc><BaseImp>100</BaseImp><Alic>1</Alic><Importe>1</Importe></Tributo></Tributos>` +
          `<Iva><AlicIva><Id>5</Id><BaseImp>100</BaseImp><Importe>21</Importe></AlicIva></Iva>` +
          `<Resultado>A</Resultado><CodAutorizacion>${cae}</CodAutorizacion><EmisionTipo>CAE</EmisionTipo>` +
          `<FchVto>${plusDays(today, 10)}</FchVto><FchProceso>\\d{14}</FchProceso><PtoVta>4000</PtoVta><CbteTipo>1</CbteTipo></ResultGet>$`,
      ),
    );

    const again = resultOf((await solicitar(4000, 1, [detail(1)])).text, "FECAESolicitar");
    expect(again).toContain("<Resultado>R</Resultado><CAE /><CAEFchVto /></FECAEDetResponse>");
    expect(again).toContain(
      errXml(
        10016,
        "El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado.",
      ),
    );
    expect(again).toContain("<FeCabResp>");
  });

  it("FECompConsultar: 602 without ResultGet when not found", async () => {
    const res = await call(
      "FECompConsultar",
      `${authXml(ta, CUIT)}<FeCompConsReq><CbteTipo>1</CbteTipo><CbteNro>999</CbteNro><PtoVta>4000</PtoVta></FeCompConsReq>`,
    );
    expect(resultOf(res.text, "FECompConsultar")).toBe(
      errXml(602, "No existen datos en nuestros registros para los parametros ingresados."),
    );
  });

  it("puts the date-range 10016 in Obs with the literal double spaces", async () => {
    const res = await solicitar(5, 1, [detail(1, { CbteFch: plusDays(arToday(), -6) })]);
    expect(resultOf(res.text, "FECAESolicitar")).toContain(
      "<Resultado>R</Resultado><Observaciones><Obs><Code>10016</Code><Msg>Campo CbteFch Debe estar comprendido  en el  rango  " +
        "N-5 y N+5 siendo N la fecha de envio del pedido  de autorizacion para 1 - Productos</Msg></Obs></Observaciones><CAE /><CAEFchVto />",
    );
  });

  it("authorizes batches with one CAE per detail; rejects bad CantReg, > 250 and FCE batches", async () => {
    const b = (n: number) =>
      detail(n, {
        DocTipo: "99",
        DocNro: "0",
        CondicionIVAReceptorId: "5",
      });
    const res = await solicitar(6, 6, [b(1), b(2), b(3)]);
    const result = resultOf(res.text, "FECAESolicitar");
    expect(result).toContain("<CantReg>3</CantReg><Resultado>A</Resultado>");
    const caes = [...result.matchAll(/<CAE>(\d{14})<\/CAE>/g)].map((m) => m[1]);
    expect(new Set(caes).size).toBe(3);
    expect(await ultimo(6, 6)).toContain("<CbteNro>3</CbteNro>");

    const partial = resultOf(
      (
        await solicitar(6, 6, [
          b(4),
          b(5).replace("<ImpTotal>122.00</ImpTotal>", "<ImpTotal>500</ImpTotal>"),
        ])
      ).text,
      "FECAESolicitar",
    );
    expect(partial).toContain("<Resultado>P</Resultado>");

    const mismatch = await solicitar(6, 6, [b(6)], 2);
    expect(resultOf(mismatch.text, "FECAESolicitar")).toContain("<Err><Code>10002</Code>");
    const many = Array.from({ length: 251 }, (_, i) => b(6 + i));
    expect(resultOf((await solicitar(6, 6, many)).text, "FECAESolicitar")).toContain(
      "<Err><Code>10003</Code>",
    );
    const fce = await solicitar(7, 201, [detail(1), detail(2)]);
    expect(resultOf(fce.text, "FECAESolicitar")).toContain("<Err><Code>10003</Code>");
  });

  it("FECAESolicitar on a point of sale not enabled for web services is rejected in Errors", async () => {
    const res = resultOf((await solicitar(1, 1, [detail(1)])).text, "FECAESolicitar");
    expect(res).toContain("<Err><Code>10005</Code>");
    expect(res).toContain("<Resultado>R</Resultado>");
  });

  it("rejects a voucher per validation rule with the rule's code in Observaciones", async () => {
    const cases: [number, number, Det][] = [
      [10048, 1, { ImpTotal: "150" }],
      [10070, 1, { Iva: undefined, ImpIVA: "0", ImpTotal: "101" }],
      [10018, 1, { Iva: undefined, ImpTotal: "122" }],
      [
        10019,
        1,
        { Iva: "<AlicIva><Id>7</Id><BaseImp>100</BaseImp><Importe>21</Importe></AlicIva>" },
      ],
      [10020, 1, { Iva: "<AlicIva><Id>5</Id><BaseImp>0</BaseImp><Importe>21</Importe></AlicIva>" }],
      [
        10021,
        1,
        { Iva: "<AlicIva><Id>5</Id><BaseImp>100</BaseImp><Importe>-21</Importe></AlicIva>" },
      ],
      [
        10022,
        1,
        {
          Iva: "<AlicIva><Id>5</Id><BaseImp>50</BaseImp><Importe>10.5</Importe></AlicIva><AlicIva><Id>5</Id><BaseImp>50</BaseImp><Importe>10.5</Importe></AlicIva>",
        },
      ],
      [10023, 1, { ImpIVA: "20", ImpTotal: "121" }],
      [
        10051,
        1,
        { Iva: "<AlicIva><Id>4</Id><BaseImp>100</BaseImp><Importe>21</Importe></AlicIva>" },
      ],
      [
        10061,
        1,
        {
          Iva: "<AlicIva><Id>5</Id><BaseImp>90</BaseImp><Importe>18.9</Importe></AlicIva>",
          ImpIVA: "18.9",
          ImpTotal: "119.9",
        },
      ],
      [
        10071,
        11,
        { ImpIVA: "0", ImpTotal: "101", CondicionIVAReceptorId: "5", DocTipo: "99", DocNro: "0" },
      ],
      [10024, 1, { Tributos: undefined }],
      [
        10029,
        1,
        {
          Tributos:
            "<Tributo><Id>99</Id><Desc>x</Desc><BaseImp>100</BaseImp><Alic>2</Alic><Importe>2</Importe></Tributo>",
        },
      ],
      [10049, 1, { Concepto: "2" }],
      [10013, 1, { DocTipo: "96", DocNro: "12345678" }],
      [10015, 1, { DocNro: "30000000008" }],
      [10197, 3, {}],
      [
        10040,
        3,
        { CbtesAsoc: "<CbteAsoc><Tipo>6</Tipo><PtoVta>1</PtoVta><Nro>1</Nro></CbteAsoc>" },
      ],
      [
        10040,
        11,
        {
          CbtesAsoc: "<CbteAsoc><Tipo>11</Tipo><PtoVta>1</PtoVta><Nro>1</Nro></CbteAsoc>",
          CondicionIVAReceptorId: "5",
          Iva: undefined,
          ImpIVA: "0",
          ImpTotal: "101",
        },
      ],
      [10246, 1, { CondicionIVAReceptorId: undefined }],
      [10242, 1, { CondicionIVAReceptorId: "99" }],
      [10243, 1, { CondicionIVAReceptorId: "5" }],
      [10039, 1, { MonCotiz: "2" }],
      [10037, 1, { MonId: "XXX" }],
    ];
    for (const [code, tipo, over] of cases) {
      const res = resultOf((await solicitar(8, tipo, [detail(1, over)])).text, "FECAESolicitar");
      expect(obsCodes(res), `${code} ${JSON.stringify(over)}`).toContain(code);
      expect(res).toContain("<Resultado>R</Resultado>");
      expect(res).toContain("<CAE /><CAEFchVto />");
    }
    const r10246 = resultOf(
      (await solicitar(8, 1, [detail(1, { CondicionIVAReceptorId: undefined })])).text,
      "FECAESolicitar",
    );
    expect(r10246).toContain(
      "<Msg>Campo Condicion Frente al IVA del receptor es obligatorio conforme a lo reglamentado por la Resolucion General Nro 5616. Para mas informacion consular metodo FEParamGetCondicionIvaReceptor</Msg>",
    );
    const r10242 = resultOf(
      (await solicitar(8, 1, [detail(1, { CondicionIVAReceptorId: "99" })])).text,
      "FECAESolicitar",
    );
    expect(r10242).toContain(
      "<Msg>El campo Condicion IVA receptor no es un valor valido. Consular metodo FEParamGetCondicionIvaReceptor</Msg>",
    );
    // A credit note with its associated invoice is fine.
    const nc = resultOf(
      (
        await solicitar(8, 3, [
          detail(1, {
            CbtesAsoc: "<CbteAsoc><Tipo>1</Tipo><PtoVta>4000</PtoVta><Nro>1</Nro></CbteAsoc>",
          }),
        ])
      ).text,
      "FECAESolicitar",
    );
    expect(nc).toContain("<Resultado>A</Resultado>");
  });

  it("FECompTotXRequest answers 250", async () => {
    const res = await call("FECompTotXRequest", authXml(ta, CUIT));
    expect(resultOf(res.text, "FECompTotXRequest")).toBe("<RegXReq>250</RegXReq>");
  });

  it("FEParamGetPtosVenta lists blocked and withdrawn points too, with their state", async () => {
    await control.enablePointOfSale("homologacion", {
      cuit: DELEGATOR,
      ptoVta: 9,
      bloqueado: true,
    });
    await control.enablePointOfSale("homologacion", {
      cuit: DELEGATOR,
      ptoVta: 10,
      fchBaja: "20240131",
    });
    const res = await call("FEParamGetPtosVenta", authXml(ta, DELEGATOR));
    expect(resultOf(res.text, "FEParamGetPtosVenta")).toBe(
      "<ResultGet>" +
        "<PtoVenta><Nro>2</Nro><EmisionTipo>CAE - Ri Iva</EmisionTipo><Bloqueado>N</Bloqueado><FchBaja>NULL</FchBaja></PtoVenta>" +
        "<PtoVenta><Nro>9</Nro><EmisionTipo>CAE - Ri Iva</EmisionTipo><Bloqueado>S</Bloqueado><FchBaja>NULL</FchBaja></PtoVenta>" +
        "<PtoVenta><Nro>10</Nro><EmisionTipo>CAE - Ri Iva</EmisionTipo><Bloqueado>N</Bloqueado><FchBaja>20240131</FchBaja></PtoVenta>" +
        "</ResultGet>",
    );
    // declaring it again sets its state again
    await control.enablePointOfSale("homologacion", { cuit: DELEGATOR, ptoVta: 9 });
    const again = resultOf(
      (await call("FEParamGetPtosVenta", authXml(ta, DELEGATOR))).text,
      "FEParamGetPtosVenta",
    );
    expect(again).toContain(
      "<Nro>9</Nro><EmisionTipo>CAE - Ri Iva</EmisionTipo><Bloqueado>N</Bloqueado>",
    );
  });

  it("parameter operations answer the authority's tables", async () => {
    const p = async (op: string, extra = "") =>
      resultOf((await call(op, `${authXml(ta, CUIT)}${extra}`)).text, op);
    expect(await p("FEParamGetTiposCbte")).toContain(
      "<ResultGet><CbteTipo><Id>1</Id><Desc>Factura A</Desc><FchDesde>20100917</FchDesde><FchHasta>NULL</FchHasta></CbteTipo>",
    );
    expect(await p("FEParamGetTiposCbte")).toContain("<Id>213</Id>");
    expect(await p("FEParamGetTiposDoc")).toContain("<DocTipo><Id>96</Id><Desc>DNI</Desc>");
    expect(await p("FEParamGetTiposIva")).toContain("<IvaTipo><Id>5</Id><Desc>21%</Desc>");
    expect(await p("FEParamGetTiposConcepto")).toContain(
      "<ConceptoTipo><Id>3</Id><Desc>Productos y Servicios</Desc>",
    );
    expect(await p("FEParamGetTiposMonedas")).toContain("<Moneda><Id>060</Id><Desc>Euro</Desc>");
    expect(await p("FEParamGetTiposTributos")).toContain(
      "<TributoTipo><Id>99</Id><Desc>Otro</Desc>",
    );
    expect(await p("FEParamGetTiposOpcional")).toContain("<OpcionalTipo><Id>27</Id>");
    expect(await p("FEParamGetPtosVenta")).toBe(
      "<ResultGet>" +
        [3, 5, 6, 7, 8, 4000]
          .map(
            (n) =>
              `<PtoVenta><Nro>${n}</Nro><EmisionTipo>CAE - Ri Iva</EmisionTipo><Bloqueado>N</Bloqueado><FchBaja>NULL</FchBaja></PtoVenta>`,
          )
          .join("") +
        "</ResultGet>",
    );
    expect(await p("FEParamGetCondicionIvaReceptor", "<ClaseCmp>A</ClaseCmp>")).toContain(
      "<CondicionIvaReceptor><Id>1</Id><Desc>IVA Responsable Inscripto</Desc><Cmp_Clase>A/ALEY/C</Cmp_Clase></CondicionIvaReceptor>",
    );
    expect(await p("FEParamGetCondicionIvaReceptor", "<ClaseCmp>Z</ClaseCmp>")).toContain(
      "<Code>10244</Code>",
    );
    await control.setCotizacion("homologacion", { monId: "DOL", cotiz: 101.202 });
    expect(await p("FEParamGetCotizacion", "<MonId>DOL</MonId><FchCotiz>20210721</FchCotiz>")).toBe(
      "<ResultGet><MonId>DOL</MonId><MonCotiz>101.202</MonCotiz><FchCotiz>20210721</FchCotiz></ResultGet>",
    );
    expect(await p("FEParamGetCotizacion", "<MonId>ZZZ</MonId>")).toContain("<Code>12000</Code>");
  });

  it("works with the npm soap client in SOAP 1.1 and SOAP 1.2", async () => {
    const client = await soap.createClientAsync(`${url}?WSDL`);
    const r11 = (await soapCall(client, "FECompUltimoAutorizado", {
      Auth: { Token: ta.token, Sign: ta.sign, Cuit: CUIT },
      PtoVta: 4000,
      CbteTipo: 1,
    })) as { FECompUltimoAutorizadoResult: { CbteNro: number } };
    expect(r11.FECompUltimoAutorizadoResult.CbteNro).toBe(1);
    const client12 = await soap.createClientAsync(`${url}?WSDL`, { forceSoap12Headers: true });
    const r12 = (await soapCall(client12, "FEDummy", {})) as {
      FEDummyResult: { AppServer: string };
    };
    expect(r12.FEDummyResult.AppServer).toBe("OK");
  });
});
