import * as soap from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.js";
import type { ControlClient, Simulator } from "../src/index.js";
import {
  FEX_NS,
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
import { fexCmp } from "./fex-helpers.js";

const CUIT = "20111111112";
const STRANGER = "20333333334";
const OK =
  "<FEXErr><ErrCode>0</ErrCode><ErrMsg>OK</ErrMsg></FEXErr><FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>";

let sim: Simulator;
let control: ControlClient;
let ta: Ta;
let feTa: Ta;
let url: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  control = makeControlClient(sim.url);
  url = sim.endpoints("produccion").wsfex;
  const id = await makeIdentity(control, "produccion", CUIT, "fex", ["wsfe", "wsfex"]);
  await control.enablePointOfSale("produccion", { cuit: CUIT, ptoVta: 7, service: "wsfex" });
  await control.enablePointOfSale("produccion", { cuit: CUIT, ptoVta: 3, service: "wsfe" });
  ta = await login(sim, "produccion", id, "wsfex");
  feTa = await login(sim, "produccion", id, "wsfe");
});

afterAll(async () => {
  await sim.close();
});

const call = (op: string, inner: string, version: "1.1" | "1.2" = "1.1") =>
  asmx(url, FEX_NS, op, inner, version);

const authorize = async (id: number, nro: number, over: Record<string, string> = {}) =>
  resultOf(
    (await call("FEXAuthorize", `${authXml(ta, CUIT)}${fexCmp(id, nro, over)}`)).text,
    "FEXAuthorize",
  );

describe("WSFEXv1", () => {
  it("FEXDummy answers in the fexv1 namespace with the WSFEX header", async () => {
    const res = await call("FEXDummy", "");
    expect(res.text).toContain(
      '<soap:Header><FEHeaderInfo xmlns="http://ar.gov.afip.dif.fexv1/"><ambiente>Produccion - srext</ambiente>',
    );
    expect(res.text).toContain("<id>5.0.1.0</id>");
    expect(res.text).toContain(
      '<soap:Body><FEXDummyResponse xmlns="http://ar.gov.afip.dif.fexv1/"><FEXDummyResult><AppServer>OK</AppServer>' +
        "<DbServer>OK</DbServer><AuthServer>OK</AuthServer></FEXDummyResult></FEXDummyResponse></soap:Body></soap:Envelope>",
    );
  });

  it("FEXGetLast_CMP reads Pto_venta and Cbte_Tipo inside Auth; 1606/1607", async () => {
    const last = async (pto: number, tipo: number) =>
      resultOf(
        (
          await call(
            "FEXGetLast_CMP",
            authXml(ta, CUIT, `<Pto_venta>${pto}</Pto_venta><Cbte_Tipo>${tipo}</Cbte_Tipo>`),
          )
        ).text,
        "FEXGetLast_CMP",
      );
    expect(await last(7, 19)).toBe(
      `<FEXResult_LastCMP><Cbte_nro>0</Cbte_nro><Cbte_fecha /></FEXResult_LastCMP>${OK}`,
    );
    expect(await last(7, 6)).toContain("<FEXErr><ErrCode>1606</ErrCode>");
    expect(await last(3, 19)).toContain("<FEXErr><ErrCode>1607</ErrCode>");
  });

  it("reports token errors as 1000 and a CUIT outside the relations as 1001, with no result block", async () => {
    const res = resultOf((await call("FEXGetLast_ID", authXml(feTa, CUIT))).text, "FEXGetLast_ID");
    expect(res).toBe(
      "<FEXErr><ErrCode>1000</ErrCode><ErrMsg>Usuario no autorizado a realizar esta operacion. ValidacionDeToken: " +
        "No valido Id Sistema: wsfex(Id Sistema de token es: wsfe)</ErrMsg></FEXErr>" +
        "<FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>",
    );
    const rel = resultOf(
      (await call("FEXGetLast_ID", authXml(ta, STRANGER))).text,
      "FEXGetLast_ID",
    );
    expect(rel).toMatch(
      /^<FEXErr><ErrCode>1001<\/ErrCode><ErrMsg>[^<]*lista de relaciones: 20333333334<\/ErrMsg>/,
    );
    await control.settings("produccion", { clockOffsetMs: 13 * 3600_000 });
    try {
      const exp = resultOf((await call("FEXGetLast_ID", authXml(ta, CUIT))).text, "FEXGetLast_ID");
      expect(exp).toContain(
        "<ErrCode>1000</ErrCode><ErrMsg>Usuario no autorizado a realizar esta operacion. ValidacionDeToken: No validaron las fechas del token GenTime, ExpTime, NowUTC: ",
      );
    } finally {
      await control.settings("produccion", { clockOffsetMs: 0 });
    }
  });

  it("FEXAuthorize authorizes, FEXGetCMP returns it, resending the same Id returns the same CAE with Reproceso S", async () => {
    const today = arToday();
    const first = await authorize(1001, 1);
    const cae = /<Cae>(\d{14})<\/Cae>/.exec(first)?.[1];
    expect(first).toMatch(
      new RegExp(
        `^<FEXResultAuth><Id>1001</Id><Cuit>${CUIT}</Cuit><Cbte_tipo>19</Cbte_tipo><Punto_vta>7</Punto_vta><Cbte_nro>1</Cbte_nro>` +
          `<Cae>\\d{14}</Cae><Fch_venc_Cae>\\d{8}</Fch_venc_Cae><Fch_cbte>${today}</Fch_cbte><Resultado>A</Resultado>` +
          `<Reproceso>N</Reproceso><Motivos_Obs /></FEXResultAuth>${OK}$`,
      ),
    );
    const again = await authorize(1001, 1);
    expect(again).toContain(`<Cae>${cae}</Cae>`);
    expect(again).toContain("<Reproceso>S</Reproceso>");

    const get = resultOf(
      (
        await call(
          "FEXGetCMP",
          `${authXml(ta, CUIT)}<Cmp><Cbte_tipo>19</Cbte_tipo><Punto_vta>7</Punto_vta><Cbte_nro>1</Cbte_nro></Cmp>`,
        )
      ).text,
      "FEXGetCMP",
    );
    expect(get).toContain(
      `<FEXResultGet><Id>1001</Id><Fecha_cbte>${today}</Fecha_cbte><Cbte_tipo>19</Cbte_tipo>`,
    );
    expect(get).toContain("<Moneda_ctz>101.202</Moneda_ctz>");
    expect(get).toContain("<Imp_total>100</Imp_total>");
    expect(get).toContain(`<Cae>${cae}</Cae><Resultado>A</Resultado>`);
    expect(get.endsWith(`</FEXResultGet>${OK}`)).toBe(true);

    const missing = resultOf(
      (
        await call(
          "FEXGetCMP",
          `${authXml(ta, CUIT)}<Cmp><Cbte_tipo>19</Cbte_tipo><Punto_vta>7</Punto_vta><Cbte_nro>99</Cbte_nro></Cmp>`,
        )
      ).text,
      "FEXGetCMP",
    );
    expect(missing).toContain(
      "<FEXResultGet><Id>0</Id><Cbte_tipo>0</Cbte_tipo><Punto_vta>0</Punto_vta><Cbte_nro>0</Cbte_nro>",
    );
    expect(missing).toContain(
      "<FEXErr><ErrCode>1020</ErrCode><ErrMsg>Comprobante inexistente</ErrMsg></FEXErr>",
    );

    const lastId = resultOf((await call("FEXGetLast_ID", authXml(ta, CUIT))).text, "FEXGetLast_ID");
    expect(lastId).toBe(`<FEXResultGet><Id>1001</Id></FEXResultGet>${OK}`);
    const last = resultOf(
      (
        await call(
          "FEXGetLast_CMP",
          authXml(ta, CUIT, "<Pto_venta>7</Pto_venta><Cbte_Tipo>19</Cbte_Tipo>"),
        )
      ).text,
      "FEXGetLast_CMP",
    );
    expect(last).toBe(
      `<FEXResult_LastCMP><Cbte_nro>1</Cbte_nro><Cbte_fecha>${today}</Cbte_fecha></FEXResult_LastCMP>${OK}`,
    );
  });

  it("FEXAuthorize rejections answer one FEXErr and no FEXResultAuth: 1530, 1510, 1535, 1610", async () => {
    expect(await authorize(2001, 2, { Cbte_Tipo: "1" })).toContain("<ErrCode>1530</ErrCode>");
    expect(await authorize(2002, 1, { Punto_vta: "3" })).toContain("<ErrCode>1510</ErrCode>");
    expect(await authorize(2003, 5)).toContain("<ErrCode>1535</ErrCode>");
    const r = await authorize(2004, 2, { Imp_total: "99" });
    expect(r).toBe(
      "<FEXErr><ErrCode>1610</ErrCode><ErrMsg>El campo Imp_total debe ser igual a la suma de los Pro_total_item de los items.</ErrMsg></FEXErr>" +
        "<FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>",
    );
  });

  it("FEXCheck_Permiso answers OK by default and NO for registered permits", async () => {
    const check = async (id: string) =>
      resultOf(
        (
          await call(
            "FEXCheck_Permiso",
            `${authXml(ta, CUIT)}<ID_Permiso>${id}</ID_Permiso><Dst_merc>203</Dst_merc>`,
          )
        ).text,
        "FEXCheck_Permiso",
      );
    expect(await check("09052EC01006154G")).toBe(
      `<FEXResultGet><Status>OK</Status></FEXResultGet>${OK}`,
    );
    await control.setPermit("produccion", {
      idPermiso: "99999AAXX999999A",
      dstMerc: 203,
      status: "NO",
    });
    expect(await check("99999AAXX999999A")).toBe(
      `<FEXResultGet><Status>NO</Status></FEXResultGet>${OK}`,
    );
  });

  it("accepts SOAP 1.2 and works with the npm soap client", async () => {
    const res = await call("FEXGetLast_ID", authXml(ta, CUIT), "1.2");
    expect(res.status).toBe(200);
    expect(res.contentType).toContain("application/soap+xml");
    const client = await soap.createClientAsync(`${url}?WSDL`);
    const out = (await soapCall(client, "FEXGetLast_CMP", {
      Auth: { Token: ta.token, Sign: ta.sign, Cuit: CUIT, Pto_venta: 7, Cbte_Tipo: 19 },
    })) as {
      FEXGetLast_CMPResult: {
        FEXResult_LastCMP: { Cbte_nro: number };
        FEXErr: { ErrCode: number };
      };
    };
    expect(out.FEXGetLast_CMPResult.FEXErr.ErrCode).toBe(0);
    expect(out.FEXGetLast_CMPResult.FEXResult_LastCMP.Cbte_nro).toBe(1);
  });

  it("faults an unknown SOAPAction and unreadable requests", async () => {
    const res = await asmx(url, FEX_NS, "FEXDummy", "", "1.1", {
      action: "http://ar.gov.afip.dif.FEV1/FEDummy",
    });
    expect(res.status).toBe(500);
    expect(res.text).toContain(
      "Server did not recognize the value of HTTP Header SOAPAction: http://ar.gov.afip.dif.FEV1/FEDummy.",
    );
    const bad = await call(
      "FEXAuthorize",
      `${authXml(ta, CUIT)}${fexCmp(3001, 2, { Cbte_nro: "dos" })}`,
    );
    expect(bad.status).toBe(500);
    expect(bad.text).toContain("Server was unable to read request.");
  });
});
