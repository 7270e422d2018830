import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli.js";
import { RECORDED_RECEIVER } from "./fe-helpers.js";
import { FE_NS, asmx, authXml, resultOf } from "./helpers.js";
import {
  CAEA_POS,
  CAE_POS,
  CaeaSim,
  ENV,
  ISSUER,
  OTHER,
  QUIET_POS,
  caeaDet,
  detOf,
  errCodes,
  obsCodes,
} from "./caea-helpers.js";
import type { Obj } from "./caea-helpers.js";

/**
 * CAEA contingency over real SOAP (the `soap` client reading the simulator's WSDL): the
 * fortnight's request window on the simulated clock, informing vouchers, the points of sale
 * without movement, and what the control API and the CLI report.
 */

let w: CaeaSim;

beforeAll(async () => {
  w = await CaeaSim.start();
});

afterAll(async () => {
  await w.close();
});

describe("CAEA contingency, along one fortnight (202703, Orden 1)", () => {
  let caea = "";

  it("FEParamGetPtosVenta tells CAE points from CAEA ones", async () => {
    await w.at("2027-02-20");
    const r = await w.op("FEParamGetPtosVenta", {});
    const points = (r["ResultGet"] as { PtoVenta: { Nro: number; EmisionTipo: string }[] })
      .PtoVenta;
    expect(points.map((p) => [Number(p.Nro), p.EmisionTipo])).toEqual([
      [CAE_POS, "CAE - Ri Iva"],
      [CAEA_POS, "CAEA - Ri Iva"],
      [QUIET_POS, "CAEA - Ri Iva"],
    ]);
  });

  it("refuses a CAEA before the window: from 5 days before the fortnight to its end (15006)", async () => {
    await w.at("2027-02-23");
    const r = await w.op("FECAEASolicitar", { Periodo: 202703, Orden: 1 });
    expect(r["ResultGet"]).toBeUndefined();
    expect(r["Errors"]).toEqual({
      Err: [
        {
          Code: 15006,
          Msg:
            "Fecha de envío podrá ser desde 5 días corridos anteriores al inicio hasta el último dia de cada quincena. " +
            "Del 2/24/2027 hasta 3/15/2027",
        },
      ],
    });
  });

  it("checks Periodo (15004), Orden (15005) and that the CUIT has a CAEA point of sale (15003)", async () => {
    await w.at("2027-02-24");
    expect(errCodes(await w.op("FECAEASolicitar", { Periodo: 20273, Orden: 1 }))).toEqual([15004]);
    expect(errCodes(await w.op("FECAEASolicitar", { Periodo: 202713, Orden: 1 }))).toEqual([15004]);
    expect(errCodes(await w.op("FECAEAConsultar", { Periodo: 202703, Orden: 3 }))).toEqual([15005]);
    await w.control.enablePointOfSale(ENV, { cuit: OTHER, ptoVta: 1, emisionTipo: "CAE" });
    try {
      const r = await w.op("FECAEASolicitar", { Periodo: 202703, Orden: 1 }, w.otherTa, OTHER);
      expect(errCodes(r)).toEqual([15003]);
    } finally {
      await w.control.enablePointOfSale(ENV, { cuit: OTHER, ptoVta: 1, emisionTipo: "CAEA" });
    }
  });

  it("grants on the window's first day, with the fortnight's dates and FchTopeInf", async () => {
    const r = await w.op("FECAEASolicitar", { Periodo: 202703, Orden: 1 });
    expect(errCodes(r)).toEqual([]);
    const g = r["ResultGet"] as Obj;
    caea = String(g["CAEA"]);
    expect(caea).toMatch(/^\d{14}$/);
    expect(g).toMatchObject({
      Periodo: 202703,
      Orden: 1,
      FchVigDesde: "20270301",
      FchVigHasta: "20270315",
      FchTopeInf: "20270323",
    });
    expect(String(g["FchProceso"])).toMatch(/^20270224\d{6}$/);
  });

  it("refuses asking again (15008); FECAEAConsultar answers the CAEA granted, 602 for another", async () => {
    const again = await w.op("FECAEASolicitar", { Periodo: 202703, Orden: 1 });
    expect(errCodes(again)).toEqual([15008]);
    expect(again["ResultGet"]).toBeUndefined();
    const got = await w.op("FECAEAConsultar", { Periodo: 202703, Orden: 1 });
    expect((got["ResultGet"] as Obj)["CAEA"]).toBe(caea);
    expect(errCodes(await w.op("FECAEAConsultar", { Periodo: 202703, Orden: 2 }))).toEqual([602]);
    // the second fortnight's window opens on the 11th
    expect(errCodes(await w.op("FECAEASolicitar", { Periodo: 202703, Orden: 2 }))).toEqual([15006]);
    // another CUIT's CAEA is its own
    const theirs = await w.op("FECAEASolicitar", { Periodo: 202703, Orden: 1 }, w.otherTa, OTHER);
    expect((theirs["ResultGet"] as Obj)["CAEA"]).not.toBe(caea);
  });

  it("refuses informing before the CAEA is in force (1414)", async () => {
    const r = await w.informar([caeaDet(1, caea)]);
    expect(r["FeCabResp"]).toMatchObject({ Resultado: "R" });
    expect(obsCodes(detOf(r))).toEqual([1414]);
  });

  it("informs vouchers issued under the CAEA; the series and FECompConsultar see them", async () => {
    await w.at("2027-03-05");
    const r = await w.informar([caeaDet(1, caea, { CbteFch: "20270304" }), caeaDet(2, caea)]);
    expect(errCodes(r)).toEqual([]);
    expect(r["FeCabResp"]).toMatchObject({ PtoVta: CAEA_POS, Resultado: "A" });
    expect(String((r["FeCabResp"] as Obj)["Cuit"])).toBe(ISSUER);
    expect(detOf(r, 1)).toMatchObject({ CbteDesde: 2, Resultado: "A", CAEA: caea });

    const last = await w.op("FECompUltimoAutorizado", { PtoVta: CAEA_POS, CbteTipo: 1 });
    expect(last["CbteNro"]).toBe(2);
    const got = await w.op("FECompConsultar", {
      FeCompConsReq: { CbteTipo: 1, CbteNro: 2, PtoVta: CAEA_POS },
    });
    expect(got["ResultGet"]).toMatchObject({
      CbteFch: "20270305",
      ImpTotal: 121,
      Resultado: "A",
      CodAutorizacion: caea,
      EmisionTipo: "CAEA",
      FchVto: "20270315",
    });
  });

  it("refuses informing a voucher twice: its number is no longer the next (703)", async () => {
    const r = await w.informar([caeaDet(2, caea)]);
    expect(errCodes(r)).toEqual([703]);
    expect(detOf(r)).toMatchObject({ Resultado: "R" });
    expect(errCodes(await w.informar([caeaDet(3, caea, { CbteFch: "20270302" })]))).toEqual([704]);
  });

  it("checks each voucher's CAEA: present (782), granted (780), the issuer's (705), covering its date (702)", async () => {
    const missing = await asmx(
      w.sim.endpoints(ENV).wsfe,
      FE_NS,
      "FECAEARegInformativo",
      `${authXml(w.ta, ISSUER)}<FeCAEARegInfReq><FeCabReq><CantReg>1</CantReg><PtoVta>${CAEA_POS}</PtoVta>` +
        `<CbteTipo>1</CbteTipo></FeCabReq><FeDetReq><FECAEADetRequest><Concepto>1</Concepto><DocTipo>80</DocTipo>` +
        `<DocNro>${RECORDED_RECEIVER}</DocNro><CbteDesde>3</CbteDesde><CbteHasta>3</CbteHasta>` +
        `<CbteFch>20270305</CbteFch></FECAEADetRequest></FeDetReq></FeCAEARegInfReq>`,
    );
    // the authority's text, its brackets escaped on the wire
    expect(resultOf(missing.text, "FECAEARegInformativo")).toContain(
      "<Errors><Err><Code>782</Code><Msg>El &lt;CAEA&gt; es obligatorio informarlo.</Msg></Err></Errors>",
    );
    expect(errCodes(await w.informar([caeaDet(3, "71234567890123")]))).toEqual([780]);
    const theirs = await w.op("FECAEAConsultar", { Periodo: 202703, Orden: 1 }, w.otherTa, OTHER);
    const otherCaea = String((theirs["ResultGet"] as Obj)["CAEA"]);
    expect(errCodes(await w.informar([caeaDet(3, otherCaea)]))).toEqual([705]);
    const late = await w.informar([caeaDet(3, caea, { CbteFch: "20270316" })]);
    expect(obsCodes(detOf(late))).toEqual([702]);
    const noHsGen = await w.informar([caeaDet(3, caea, { CbteFchHsGen: undefined })]);
    expect(obsCodes(detOf(noHsGen))).toEqual([1440]);
    // nothing of this moved the series
    const last = await w.op("FECompUltimoAutorizado", { PtoVta: CAEA_POS, CbteTipo: 1 });
    expect(last["CbteNro"]).toBe(2);
  });

  it("applies FECAESolicitar's rules to each voucher (10048 on a wrong total)", async () => {
    const r = await w.informar([caeaDet(3, caea, { ImpTotal: 150 })]);
    expect(detOf(r)).toMatchObject({ Resultado: "R" });
    expect(obsCodes(detOf(r))).toContain(10048);
  });

  it("keeps CAE and CAEA points of sale apart (10005, 701)", async () => {
    const cae = await w.op("FECAESolicitar", {
      FeCAEReq: {
        FeCabReq: { CantReg: 1, PtoVta: CAEA_POS, CbteTipo: 1 },
        FeDetReq: { FECAEDetRequest: [caeaDet(3, undefined, { CbteFchHsGen: undefined })] },
      },
    });
    expect(errCodes(cae)).toEqual([10005]);
    expect(errCodes(await w.informar([caeaDet(1, caea)], CAE_POS))).toEqual([701]);
  });

  it("declares a point of sale without movement, once, and only one that issued nothing", async () => {
    const sinMov = (pto: number, code = caea) =>
      w.op("FECAEASinMovimientoInformar", { PtoVta: pto, CAEA: code });
    const ok = await sinMov(QUIET_POS);
    expect(ok).toMatchObject({ CAEA: caea, PtoVta: QUIET_POS, Resultado: "A" });
    expect(errCodes(ok)).toEqual([]);
    expect(errCodes(await sinMov(QUIET_POS))).toEqual([1209]);
    expect(errCodes(await sinMov(CAEA_POS))).toEqual([1202]);
    expect(errCodes(await sinMov(CAE_POS))).toEqual([1204]);
    const notCaea = await sinMov(QUIET_POS, "71234567890123");
    expect(notCaea).toMatchObject({ Resultado: "R" });
    expect(notCaea["Errors"]).toEqual({
      Err: [{ Code: 1200, Msg: "El codigo de autorizacion debe ser del tipo CAEA" }],
    });

    const one = await w.op("FECAEASinMovimientoConsultar", { CAEA: caea, PtoVta: QUIET_POS });
    expect(one["ResultGet"]).toMatchObject({
      FECAEASinMov: [{ CAEA: caea, PtoVta: QUIET_POS }],
    });
    const all = await w.op("FECAEASinMovimientoConsultar", { CAEA: caea, PtoVta: 0 });
    expect((all["ResultGet"] as { FECAEASinMov: Obj[] }).FECAEASinMov).toHaveLength(1);
    const used = await w.op("FECAEASinMovimientoConsultar", { CAEA: caea, PtoVta: CAEA_POS });
    expect(errCodes(used)).toEqual([10105]);
  });

  it("refuses informing after FchTopeInf (1414)", async () => {
    await w.at("2027-03-23");
    expect(detOf(await w.informar([caeaDet(3, caea)]))).toMatchObject({ Resultado: "A" });
    await w.at("2027-03-24");
    const r = await w.informar([caeaDet(4, caea, { CbteFch: "20270315" })]);
    expect(obsCodes(detOf(r))).toEqual([1414]);
  });

  it("reports the CAEAs, their vouchers and declarations through the control API and the CLI", async () => {
    const report = await w.control.caeas(ENV, ISSUER);
    expect(report.caeas).toHaveLength(1);
    const g = report.caeas[0];
    expect(g).toMatchObject({ caea, periodo: 202703, orden: 1, fchTopeInf: "20270323" });
    expect(g?.vouchers.map((v) => [v.ptoVta, v.cbteTipo, v.cbteNro, v.cbteFch])).toEqual([
      [CAEA_POS, 1, 1, "20270304"],
      [CAEA_POS, 1, 2, "20270305"],
      [CAEA_POS, 1, 3, "20270305"],
    ]);
    expect(g?.vouchers[0]?.cbteFchHsGen).toBe("20270305101500");
    expect(g?.sinMovimiento.map((s) => s.ptoVta)).toEqual([QUIET_POS]);
    const printed = await runCli(["caea", "--environment", ENV, "--cuit", ISSUER], w.control);
    expect(JSON.parse(printed)).toEqual(report);
    await expect(w.control.caeas(ENV, "20111111113")).rejects.toThrow(/check digit/);
  });
});

describe("sim pos --emision", () => {
  it("enables a CAEA point of sale (CAE by default), for wsfe only", async () => {
    const pos = (...more: string[]) =>
      runCli(["pos", "--environment", ENV, "--cuit", OTHER, "--pto-vta", ...more], w.control);
    expect(await pos("7", "--emision", "CAEA")).toBe('{"ok":true}');
    expect(await pos("8")).toBe('{"ok":true}');
    await expect(pos("9", "--emision", "CAEA", "--service", "wsfex")).rejects.toThrow(
      /--emision CAEA is for --service wsfe only/,
    );
    const r = await w.op("FEParamGetPtosVenta", {}, w.otherTa, OTHER);
    const points = (r["ResultGet"] as { PtoVenta: { Nro: number; EmisionTipo: string }[] })
      .PtoVenta;
    expect(points.map((p) => [Number(p.Nro), p.EmisionTipo])).toEqual([
      [1, "CAEA - Ri Iva"],
      [7, "CAEA - Ri Iva"],
      [8, "CAE - Ri Iva"],
    ]);
  });
});
