import { describe, expect, it } from "vitest";
import {
  inicioDelDia,
  quincena,
  quincenaDe,
  quincenasPedibles,
  siguiente,
  ventanaAbre,
  ventanaCierra,
} from "../../../src/domain/caea/quincena.js";

describe("the CAEA's fortnights", () => {
  it("are the 1st–15th and the 16th–month end, in Argentine time", () => {
    expect(quincena(202702, 1)).toEqual({
      periodo: 202702,
      orden: 1,
      desde: "20270201",
      hasta: "20270215",
    });
    expect(quincena(202702, 2).hasta).toBe("20270228");
    expect(quincena(202802, 2).hasta).toBe("20280229");
    expect(quincena(202612, 2).hasta).toBe("20261231");
    // 02:59 UTC on the 16th is still the 15th in Buenos Aires
    expect(quincenaDe(new Date("2027-03-16T02:59:00Z"))).toMatchObject({
      periodo: 202703,
      orden: 1,
    });
    expect(quincenaDe(new Date("2027-03-16T03:00:00Z"))).toMatchObject({
      periodo: 202703,
      orden: 2,
    });
    expect(quincenaDe(new Date("2027-01-01T02:00:00Z"))).toMatchObject({
      periodo: 202612,
      orden: 2,
    });
  });

  it("follow each other across months and years", () => {
    expect(siguiente({ periodo: 202703, orden: 1 })).toMatchObject({ periodo: 202703, orden: 2 });
    expect(siguiente({ periodo: 202703, orden: 2 })).toMatchObject({ periodo: 202704, orden: 1 });
    expect(siguiente({ periodo: 202612, orden: 2 })).toMatchObject({ periodo: 202701, orden: 1 });
  });

  it("may be asked for from 5 days before they start until their last day ends", () => {
    const q = quincena(202703, 1);
    expect(inicioDelDia("20270301").toISOString()).toBe("2027-03-01T03:00:00.000Z");
    expect(ventanaAbre(q).toISOString()).toBe("2027-02-24T03:00:00.000Z");
    expect(ventanaCierra(q).toISOString()).toBe("2027-03-16T03:00:00.000Z");
    // on Feb 23 only February's second fortnight; from Feb 24 (Argentina) March's first too
    expect(quincenasPedibles(new Date("2027-02-24T02:59:00Z")).map((x) => x.orden)).toEqual([2]);
    expect(
      quincenasPedibles(new Date("2027-02-24T03:00:00Z")).map((x) => [x.periodo, x.orden]),
    ).toEqual([
      [202702, 2],
      [202703, 1],
    ]);
  });
});
