import { z } from "zod";

/**
 * The most significant digits an amount the gateway keeps may have. A double holds every
 * decimal of up to 15 significant digits, and JSON prints that double back as the same
 * decimal; so each amount, kept as exact decimal text by the services, answers as a JSON number
 * without rounding. Inputs that are stored and answered back are bounded to it.
 */
export const AMOUNT_SIGNIFICANT_DIGITS = 15;

const DECIMAL_TEXT = /^-?(\d+)(?:\.(\d+))?$/;

/** Digits from the first non-zero to the last non-zero one: "0.0050" → 1, "1210.50" → 5. */
export function significantDigits(text: string): number {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return Number.POSITIVE_INFINITY;
  const digits = `${match[1] ?? ""}${match[2] ?? ""}`.replace(/^0+/, "").replace(/0+$/, "");
  return digits.length;
}

/**
 * The JSON number of an exact decimal kept as text: the nearest double, which prints back as
 * that decimal. Undefined beyond 15 significant digits, where it may not. Reading the text is a
 * conversion, never arithmetic on a double.
 */
export function exactNumber(text: string): number | undefined {
  if (significantDigits(text) > AMOUNT_SIGNIFICANT_DIGITS) return undefined;
  return Number(text);
}

/**
 * An amount of an HTTP answer: the services' exact decimal text in, a JSON number out (the
 * OpenAPI document shows the number). Text that no number represents exactly fails the answer
 * instead of being rounded; the input bounds make that impossible for stored amounts.
 */
export const amountAnswer = (description: string) =>
  z
    .string()
    .transform((text, ctx) => {
      const value = exactNumber(text);
      if (value === undefined) {
        ctx.addIssue({ code: "custom", message: "no es un importe exacto como número JSON" });
        return z.NEVER;
      }
      return value;
    })
    .pipe(z.number().describe(description));
