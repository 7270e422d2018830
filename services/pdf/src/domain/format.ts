import Big from "big.js";

/**
 * The printed voucher's own arithmetic on decimal texts; how amounts, dates and codes read is
 * @pasarela/formato's, shared with the panel.
 */

/** `amount × (1 + rate/100)`, rounded half up to cents: a class A line with its VAT. */
export function conIva(amount: string, rate: string): string {
  return new Big(amount).times(new Big(rate).div(100).plus(1)).toFixed(2, Big.roundHalfUp);
}

/** `amount × rate`, rounded half up to cents: a foreign-currency total in pesos. */
export function enPesos(amount: string, cotizacion: string): string {
  return new Big(amount).times(cotizacion).toFixed(2, Big.roundHalfUp);
}

/** The sum of decimal texts, exactly. */
export function suma(values: readonly string[]): string {
  return values.reduce((total, value) => total.plus(value), new Big(0)).toFixed(2);
}

export const isPositive = (value: string): boolean => new Big(value).gt(0);
