import { describe, expect, it } from "vitest";
import { umbralesCruzados } from "../../src/domain/cuota-alerta.js";

describe("quota thresholds crossed by a reservation", () => {
  it("80 % of 5 is the 4th unit, 100 % the 5th; the others cross nothing", () => {
    const crossed = [0, 1, 2, 3, 4].map((before) => umbralesCruzados(before, before + 1, 5));
    expect(crossed).toEqual([[], [], [], [80], [100]]);
  });

  it("rounds the share up: 80 % of 7 is the 6th unit (5.6 → 6)", () => {
    expect(umbralesCruzados(4, 5, 7)).toEqual([]);
    expect(umbralesCruzados(5, 6, 7)).toEqual([80]);
  });

  it("a quota of 1 crosses both thresholds with its only unit", () => {
    expect(umbralesCruzados(0, 1, 1)).toEqual([80, 100]);
  });

  it("a jump past both (several units at once) announces both", () => {
    expect(umbralesCruzados(70, 100, 100)).toEqual([80, 100]);
    expect(umbralesCruzados(80, 99, 100)).toEqual([]);
  });

  it("a quota of 0 crosses nothing", () => {
    expect(umbralesCruzados(0, 1, 0)).toEqual([]);
  });
});
