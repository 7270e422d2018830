import Big from "big.js";

/**
 * Random issuance bodies for the property tests, from a seed so a failure can be replayed
 * (PROPERTY_SEED=<seed>). Values are written the way callers write them: JSON numbers or
 * decimal strings, quantities with up to 6 decimals, prices with up to 6.
 */

export interface Rng {
  readonly seed: number;
  /** uniform in [0, 1) */
  next: () => number;
  /** an integer in [lo, hi] */
  int: (lo: number, hi: number) => number;
  pick: <T>(values: readonly T[]) => T;
  chance: (p: number) => boolean;
}

/** mulberry32: small, fast and good enough to spread test cases. */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    seed,
    next,
    int,
    pick: (values) => {
      const value = values[int(0, values.length - 1)];
      if (value === undefined) throw new Error("pick from an empty list");
      return value;
    },
    chance: (p) => next() < p,
  };
}

/** The seed of this run: PROPERTY_SEED when set, otherwise a fresh one (printed on failure). */
export function propertySeed(): number {
  const fromEnv = Number(process.env.PROPERTY_SEED);
  return Number.isSafeInteger(fromEnv) && fromEnv > 0 ? fromEnv : Date.now() % 2_147_483_647;
}

/** A decimal in [0, max] with up to `decimals` digits after the point, as text. */
export function randomDecimal(rng: Rng, max: number, decimals: number): string {
  const integer = rng.int(0, max);
  const places = rng.int(0, decimals);
  let fraction = "";
  for (let i = 0; i < places; i++) fraction += String(rng.int(0, 9));
  return fraction ? `${integer}.${fraction}` : String(integer);
}

/** How a caller might send the amount: a JSON number when it reads back exactly, or text. */
export function asSent(rng: Rng, text: string): number | string {
  const number = Number(text);
  return rng.chance(0.5) && new Big(String(number)).eq(text) ? number : text;
}

const RATES = ["0", "2.5", "5", "10.5", "21", "27"] as const;
const TRIBUTO_IDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 99] as const;

export interface ItemOptions {
  readonly classC: boolean;
  /** largest integer part of a price */
  readonly maxPrice: number;
  readonly maxItems: number;
}

/** Items with mixed rates, quantities with up to 6 decimals, prices with up to 6, discounts. */
export function randomItems(rng: Rng, options: ItemOptions): Record<string, unknown>[] {
  const count = rng.int(1, options.maxItems);
  const items: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const cantidad = rng.pick([
      () => String(rng.int(1, 50)),
      () => randomDecimal(rng, 99, 6),
      () => `0.${String(rng.int(1, 999_999)).padStart(6, "0")}`,
    ])();
    const safeCantidad = new Big(cantidad).eq(0) ? "1" : cantidad;
    const precio = rng.pick([
      () => randomDecimal(rng, options.maxPrice, 2),
      () => randomDecimal(rng, options.maxPrice, 4),
      () => randomDecimal(rng, 99, 6),
      () => `0.${String(rng.int(1, 99)).padStart(2, "0")}`,
    ])();
    const alicuotaIva = options.classC
      ? "0"
      : rng.chance(0.1)
        ? rng.pick(["exento", "no_gravado"])
        : rng.pick(RATES);
    const item: Record<string, unknown> = {
      descripcion: `Ítem ${i + 1}`,
      cantidad: asSent(rng, safeCantidad),
      precioUnitario: asSent(rng, precio),
      alicuotaIva:
        alicuotaIva === "exento" || alicuotaIva === "no_gravado"
          ? alicuotaIva
          : asSent(rng, alicuotaIva),
    };
    if (rng.chance(0.3)) {
      const gross = new Big(safeCantidad).times(precio);
      const bonificacion = gross.times(rng.next()).round(rng.int(0, 6), Big.roundDown);
      item.bonificacion = asSent(rng, bonificacion.toFixed());
    }
    items.push(item);
  }
  return items;
}

/** Tributes whose amount is base × rate rounded half up, as the rule wants. */
export function randomTributos(rng: Rng, max: number): Record<string, unknown>[] {
  const tributos: Record<string, unknown>[] = [];
  for (let i = rng.int(0, max); i > 0; i--) {
    const baseImponible = randomDecimal(rng, 50_000, 2);
    const alicuota = randomDecimal(rng, 9, 2);
    const importe = new Big(baseImponible).times(alicuota).div(100).round(2, Big.roundHalfUp);
    if (importe.eq(0)) continue;
    tributos.push({
      id: rng.pick(TRIBUTO_IDS),
      descripcion: "Percepción",
      baseImponible: asSent(rng, baseImponible),
      alicuota: asSent(rng, alicuota),
      importe: asSent(rng, importe.toFixed(2)),
    });
  }
  return tributos;
}

const CUIT_WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
/** A CUIT with a valid check digit, for receivers. */
export function randomCuit(rng: Rng): string {
  for (;;) {
    const body = `${rng.pick(["20", "27", "30", "33"])}${String(rng.int(0, 99_999_999)).padStart(8, "0")}`;
    const sum = CUIT_WEIGHTS.reduce((acc, w, i) => acc + w * Number(body[i]), 0);
    const check = 11 - (sum % 11);
    if (check === 10) continue;
    return `${body}${check === 11 ? 0 : check}`;
  }
}
