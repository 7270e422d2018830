import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAEA_POS, CaeaSim, ENV, caeaDet, errCodes } from "./caea-helpers.js";
import type { Obj } from "./caea-helpers.js";

/** The CAEA operations under the faults `sim fault` injects, by operation name. */

let w: CaeaSim;

beforeAll(async () => {
  w = await CaeaSim.start();
});

afterAll(async () => {
  await w.close();
});

describe("CAEA operations under injected faults", () => {
  it("error-501 on FECAEASolicitar only; a grant dropped after commit is there on retry", async () => {
    await w.at("2027-04-12");
    await w.control.setFault(ENV, {
      service: "wsfe",
      mode: "error-501",
      operation: "FECAEASolicitar",
    });
    try {
      const r = await w.op("FECAEASolicitar", { Periodo: 202704, Orden: 2 });
      expect(errCodes(r)).toEqual([501]);
      expect(errCodes(await w.op("FECAEAConsultar", { Periodo: 202704, Orden: 2 }))).toEqual([602]);
    } finally {
      await w.control.setFault(ENV, { service: "wsfe", mode: "none" });
    }
    await w.control.setFault(ENV, {
      service: "wsfe",
      mode: "drop-after-commit",
      operation: "FECAEASolicitar",
    });
    try {
      await expect(w.op("FECAEASolicitar", { Periodo: 202704, Orden: 2 })).rejects.toThrow();
    } finally {
      await w.control.setFault(ENV, { service: "wsfe", mode: "none" });
    }
    expect(errCodes(await w.op("FECAEASolicitar", { Periodo: 202704, Orden: 2 }))).toEqual([15008]);
    const got = await w.op("FECAEAConsultar", { Periodo: 202704, Orden: 2 });
    expect((got["ResultGet"] as Obj)["FchVigDesde"]).toBe("20270416");
    expect((got["ResultGet"] as Obj)["FchTopeInf"]).toBe("20270508");
    const stats = await w.control.stats(ENV);
    expect(stats.faults).toEqual({
      "FECAEASolicitar error-501": 1,
      "FECAEASolicitar drop-after-commit": 1,
    });
  });

  it("unavailable on FECAEARegInformativo informs nothing", async () => {
    const got = await w.op("FECAEAConsultar", { Periodo: 202704, Orden: 2 });
    const caea = String((got["ResultGet"] as Obj)["CAEA"]);
    await w.at("2027-04-20");
    await w.control.setFault(ENV, {
      service: "wsfe",
      mode: "unavailable",
      operation: "FECAEARegInformativo",
    });
    try {
      await expect(
        w.informar([caeaDet(1, caea, { CbteFch: "20270420", CbteFchHsGen: "20270420080000" })]),
      ).rejects.toThrow();
    } finally {
      await w.control.setFault(ENV, { service: "wsfe", mode: "none" });
    }
    const last = await w.op("FECompUltimoAutorizado", { PtoVta: CAEA_POS, CbteTipo: 1 });
    expect(last["CbteNro"]).toBe(0);
    const r = await w.informar([
      caeaDet(1, caea, { CbteFch: "20270420", CbteFchHsGen: "20270420080000" }),
    ]);
    expect(r["FeCabResp"]).toMatchObject({ Resultado: "A" });
  });

  it("refuses a second FECAEARegInformativo on a series while the first is processed (502)", async () => {
    const got = await w.op("FECAEAConsultar", { Periodo: 202704, Orden: 2 });
    const caea = String((got["ResultGet"] as Obj)["CAEA"]);
    await w.control.setFault(ENV, {
      service: "wsfe",
      mode: "none",
      latencyMs: 400,
      latencyOperation: "FECAEARegInformativo",
    });
    try {
      const det = caeaDet(2, caea, { CbteFch: "20270420", CbteFchHsGen: "20270420090000" });
      const [first, second] = await Promise.all([w.informar([det]), w.informar([det])]);
      const codes = [errCodes(first), errCodes(second)].sort();
      expect(codes).toEqual([[], [502]]);
    } finally {
      await w.control.setFault(ENV, { service: "wsfe", mode: "none" });
    }
    const last = await w.op("FECompUltimoAutorizado", { PtoVta: CAEA_POS, CbteTipo: 1 });
    expect(last["CbteNro"]).toBe(2);
  });
});
