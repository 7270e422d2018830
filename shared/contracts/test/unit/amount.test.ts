import { describe, expect, it } from "vitest";
import { z } from "zod";
import { amountAnswer, exactNumber, significantDigits } from "../../src/common/amount.js";

describe("amounts answered as JSON numbers", () => {
  it("counts significant digits, leading and trailing zeros aside", () => {
    expect(significantDigits("0")).toBe(0);
    expect(significantDigits("0.00")).toBe(0);
    expect(significantDigits("1210.50")).toBe(5);
    expect(significantDigits("0.000001")).toBe(1);
    expect(significantDigits("9000.00")).toBe(1);
    expect(significantDigits("-12.5")).toBe(3);
    expect(significantDigits("999999999999.999999")).toBe(18);
    expect(significantDigits("1e3")).toBe(Number.POSITIVE_INFINITY);
  });

  it("gives the number that prints back as the same decimal, up to 15 significant digits", () => {
    for (const [text, value] of [
      ["9000.00", 9000],
      ["1210.50", 1210.5],
      ["0.1", 0.1],
      ["9999999999999.99", 9999999999999.99],
      ["123456789.123456", 123456789.123456],
      ["0.000001", 0.000001],
      ["0", 0],
    ] as const) {
      expect(exactNumber(text)).toBe(value);
      expect(JSON.stringify(exactNumber(text))).toBe(String(value));
    }
    // a double would print these back as another decimal
    expect(exactNumber("999999999999.999999")).toBeUndefined();
    expect(exactNumber("1234567890123456.5")).toBeUndefined();
  });

  it("answers text in, number out, and documents the number", () => {
    const schema = z.object({ impTotal: amountAnswer("Importe total") });
    expect(schema.parse({ impTotal: "9000.00" })).toEqual({ impTotal: 9000 });
    expect(schema.safeParse({ impTotal: "999999999999.999999" }).success).toBe(false);
    expect(z.toJSONSchema(schema, { io: "output" }).properties).toEqual({
      impTotal: { type: "number", description: "Importe total" },
    });
  });
});
