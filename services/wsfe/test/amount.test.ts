import { describe, expect, it } from "vitest";
import {
  amountNumber,
  decimalText,
  roundToCents,
  twoDecimals,
  type DecimalText,
} from "../src/domain/amount.js";

/**
 * The oracle: a decimal string read into a BigInt of units of 10^-scale, rounded to cents half
 * away from zero with integer arithmetic only, printed with exactly two decimals.
 */
function oracleCents(text: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) throw new Error(`oracle cannot read ${text}`);
  const negative = m[1] === "-";
  const whole = m[2] ?? "";
  const fraction = m[3] ?? "";
  const exponent = Number(m[4] ?? "0");
  let units = BigInt(`${whole}${fraction}` || "0");
  let scale = fraction.length - exponent;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  let cents: bigint;
  if (scale <= 2) {
    cents = units * 10n ** BigInt(2 - scale);
  } else {
    const divisor = 10n ** BigInt(scale - 2);
    cents = units / divisor;
    if (2n * (units % divisor) >= divisor) cents += 1n;
  }
  const sign = negative && cents !== 0n ? "-" : "";
  return `${sign}${cents / 100n}.${String(cents % 100n).padStart(2, "0")}`;
}

const decimal = (text: string): DecimalText => {
  const value = decimalText(text);
  if (value === undefined) throw new Error(`not a decimal: ${text}`);
  return value;
};

/** A small deterministic generator (mulberry32) so a failure names a reproducible input. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const digits = (next: () => number, count: number) =>
  Array.from({ length: count }, () => Math.floor(next() * 10)).join("");

/** Every half-cent value under 200: 0.005, 0.015, …, 199.995. */
const halfCents = Array.from(
  { length: 20_000 },
  (_, c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, "0")}5`,
);

describe("amounts: the authority's decimal text rounded to cents in decimal arithmetic", () => {
  it("rounds every half-cent value under 200 half away from zero, both signs", () => {
    const wrong: string[] = [];
    for (const text of halfCents) {
      for (const signed of [text, `-${text}`]) {
        const expected = oracleCents(signed);
        if (roundToCents(decimal(signed)).toFixed(2) !== expected) wrong.push(signed);
        if (twoDecimals(decimal(signed)) !== Number(expected)) wrong.push(`${signed} (number)`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("agrees with the integer oracle on generated decimal strings of every shape", () => {
    const next = random(20260522);
    const wrong: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const whole = digits(next, Math.floor(next() * 13));
      const fraction = digits(next, Math.floor(next() * 9));
      const sign = next() < 0.3 ? "-" : next() < 0.1 ? "+" : "";
      const exponent =
        next() < 0.15
          ? `${next() < 0.5 ? "E" : "e"}${next() < 0.5 ? "-" : "+"}0${Math.floor(next() * 6)}`
          : "";
      let text = `${sign}${whole || "0"}${fraction ? `.${fraction}` : ""}${exponent}`;
      if (next() < 0.05) text = `${sign}.${fraction || "5"}`;
      const expected = oracleCents(text);
      if (roundToCents(decimal(text)).toFixed(2) !== expected) wrong.push(text);
      if (twoDecimals(decimal(text)) !== Number(expected)) wrong.push(`${text} (number)`);
    }
    expect(wrong).toEqual([]);
  });

  it("reads the authority's doubles as printed and keeps them exact until rounded", () => {
    expect(twoDecimals(decimal("2.135"))).toBe(2.14);
    expect(twoDecimals(decimal("1.005"))).toBe(1.01);
    expect(twoDecimals(decimal("-2.675"))).toBe(-2.68);
    expect(twoDecimals(decimal("122"))).toBe(122);
    expect(twoDecimals(decimal("1E-05"))).toBe(0);
    expect(twoDecimals(decimal("1.2345E+2"))).toBe(123.45);
    expect(amountNumber(decimal("101.202"))).toBe(101.202);
    expect(decimalText(" 122.5 ")).toBe("122.5");
    expect(decimalText("+3")).toBe("3");
  });

  it.each(["", " ", "abc", "1,5", "0x10", "Infinity", "NaN", "1e400", "1.2.3", "--1", "1e"])(
    "refuses %j as an amount",
    (text) => {
      expect(decimalText(text)).toBeUndefined();
    },
  );
});
