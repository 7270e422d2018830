import Big from "big.js";

/** Thousands with dots, decimals after a comma: the Argentine way ("1.234.567,89"). */
function argentine(fixed: string): string {
  const [integer = "0", fraction] = fixed.split(".");
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return fraction === undefined ? grouped : `${grouped},${fraction}`;
}

/** An amount with exactly two decimals, from its decimal text (never a binary float). */
export function importe(decimal: string): string {
  return argentine(new Big(decimal).toFixed(2, Big.roundHalfUp));
}

/** A quantity or unit price as sent: at least two decimals, up to the six it may carry. */
export function decimal(value: string): string {
  const fixed = new Big(value).toFixed(6);
  return argentine(fixed.replace(/0{1,4}$/, ""));
}

/** A rate in % as people write it: "21%", "10,5%". */
export function porcentaje(rate: string): string {
  return `${argentine(new Big(rate).toString())}%`;
}

/** `yyyymmdd` → `dd/mm/yyyy`. */
export function fecha(yyyymmdd: string): string {
  return `${yyyymmdd.slice(6, 8)}/${yyyymmdd.slice(4, 6)}/${yyyymmdd.slice(0, 4)}`;
}

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
