import Big from "big.js";

/**
 * An amount as decimal text that has been checked to be a finite decimal number: how the
 * authority prints its xsd:double fields ("122", "101.202", "-0.5", "1E-05") and how the
 * gateway keeps amounts until they are rounded. Never a binary float: a double cannot hold
 * 2.135, and rounding the double it holds instead gives 2.13.
 */
export type DecimalText = string & { readonly __decimalText: unique symbol };

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The text as a `DecimalText`, or undefined when it is not a finite decimal number. */
export function decimalText(text: string | undefined): DecimalText | undefined {
  const trimmed = text?.trim();
  if (trimmed === undefined || !DECIMAL.test(trimmed)) return undefined;
  // an exponent beyond what a JSON number holds is not an amount
  if (!Number.isFinite(Number(trimmed))) return undefined;
  return (trimmed.startsWith("+") ? trimmed.slice(1) : trimmed) as DecimalText;
}

/** Two decimals, half away from zero as amounts are printed on a voucher, in exact arithmetic. */
export function roundToCents(amount: DecimalText | Big): Big {
  return new Big(amount).round(2, Big.roundHalfUp);
}

/**
 * The JSON number for an amount (the API answers amounts as numbers): the double nearest to the
 * decimal, which JSON prints back as the same decimal for up to 15 significant digits.
 */
export function amountNumber(amount: DecimalText | Big): number {
  return Number(new Big(amount).toString());
}

/** `impTotal`: the authority's amount rounded to two decimals, as a number. */
export function twoDecimals(amount: DecimalText): number {
  return amountNumber(roundToCents(amount));
}
