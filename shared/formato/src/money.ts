import Big from "big.js";

/**
 * Amounts, quantities and rates the Argentine way ("1.234.567,89"), always from their decimal
 * text: a binary float never touches the digits.
 */

/** Thousands with dots, decimals after a comma; a zero is never signed ("-0,00" is "0,00"). */
function argentine(fixed: string): string {
  const negative = fixed.startsWith("-") && /[1-9]/.test(fixed);
  const [integer = "0", fraction] = fixed.replace(/^-/, "").split(".");
  const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  const text = fraction === undefined ? grouped : `${grouped},${fraction}`;
  return negative ? `-${text}` : text;
}

/** An amount with exactly two decimals, rounded half up once: "102.850,00". */
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

/** The authority's id of the peso (FEParamGetTiposMonedas). */
export const PESOS = "PES";

const MONEDAS: Readonly<Record<string, string>> = {
  PES: "Pesos Argentinos",
  DOL: "Dólar Estadounidense",
  "060": "Euro",
  "012": "Real",
  "021": "Libra Esterlina",
};

/** A currency's name from the authority's id ("DOL" → "Dólar Estadounidense"), else the id. */
export const nombreMoneda = (id: string): string => MONEDAS[id] ?? id;

/** The signs written before an amount; a currency without a sure sign shows its id. */
const SIGNOS: Readonly<Record<string, string>> = { PES: "$", DOL: "US$", "060": "€" };

/** The sign or id an amount of this currency carries: "$", "US$", "€", "EUR"… */
export const signoMoneda = (id: string): string => SIGNOS[id] ?? id;

/**
 * An amount in its currency: "$ 102.850,00", "US$ 1.500,00", "€ 20,00", "012 1.500,00"; a
 * negative one keeps the sign in front ("-$ 1.500,00").
 */
export function dinero(amount: string, moneda: string = PESOS): string {
  const text = importe(amount);
  const negative = text.startsWith("-");
  return `${negative ? "-" : ""}${signoMoneda(moneda)} ${negative ? text.slice(1) : text}`;
}
