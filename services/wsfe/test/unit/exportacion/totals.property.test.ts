import { describe, expect, it } from "vitest";
import { fexCmp } from "../../../src/domain/exportacion/index.js";
import {
  asSent,
  propertySeed,
  randomDecimal,
  seededRng,
  type Rng,
} from "../../issuance-generator.js";
import { facturaE, prepare } from "./fixtures.js";

/** A decimal as integer units of 10^-scale, apart from big.js and the domain. */
const exact = (text: string) => {
  const [integer = "0", fraction = ""] = text.split(".");
  return { units: BigInt(`${integer}${fraction}`), scale: fraction.length };
};

/** Cents of a (possibly negative) units/10^scale, half away from zero. */
function cents(units: bigint, scale: number): bigint {
  const denominator = 10n ** BigInt(scale);
  const magnitude = units < 0n ? -units : units;
  const rounded = (2n * magnitude * 100n + denominator) / (2n * denominator);
  return units < 0n ? -rounded : rounded;
}

const centsText = (text: string): bigint => {
  expect(text).toMatch(/^-?\d+\.\d{2}$/);
  return BigInt(text.replace(".", ""));
};

/** Whether `text` ≤ units/10^scale. */
function atMost(text: string, units: bigint, scale: number): boolean {
  const { units: u, scale: s } = exact(text);
  const common = Math.max(s, scale);
  return u * 10n ** BigInt(common - s) <= units * 10n ** BigInt(common - scale);
}

/** A line as a caller writes it, and its cents by integer arithmetic. */
function randomLine(rng: Rng): { item: Record<string, unknown>; cents: bigint } {
  if (rng.chance(0.1)) {
    const bonificacion = randomDecimal(rng, 50, 3);
    const { units, scale } = exact(bonificacion);
    return {
      item: {
        descripcion: "Bonificación",
        cantidad: 0,
        unidadMedida: 99,
        bonificacion: asSent(rng, bonificacion),
      },
      cents: cents(-units, scale),
    };
  }
  const cantidad = randomDecimal(rng, 500, 6);
  const precio = randomDecimal(rng, 100_000, 6);
  const q = exact(cantidad);
  const p = exact(precio);
  const grossScale = q.scale + p.scale;
  const gross = q.units * p.units;
  // a discount up to the gross, at most 6 decimals
  const drawn = rng.chance(0.3)
    ? randomDecimal(rng, Number(gross / 10n ** BigInt(grossScale)), 6)
    : "0";
  const bonificacion = atMost(drawn, gross, grossScale) ? drawn : "0";
  const b = exact(bonificacion);
  const scale = Math.max(grossScale, b.scale);
  const net = gross * 10n ** BigInt(scale - grossScale) - b.units * 10n ** BigInt(scale - b.scale);
  return {
    item: {
      descripcion: "Mercadería",
      cantidad: asSent(rng, cantidad),
      unidadMedida: rng.pick([1, 2, 5, 7, 8, 9, 14, 29, 96]),
      precioUnitario: asSent(rng, precio),
      bonificacion: asSent(rng, bonificacion),
    },
    cents: cents(net, scale),
  };
}

describe("export totals, property: random item lists", () => {
  it("price each line once and total them exactly, as integer arithmetic does", () => {
    const rng = seededRng(propertySeed());
    let issued = 0;
    for (let n = 0; n < 2_000; n++) {
      const lines = Array.from({ length: rng.int(1, 12) }, () => randomLine(rng));
      const result = prepare({ ...facturaE, items: lines.map((line) => line.item) });
      const expected = lines.reduce((sum, line) => sum + line.cents, 0n);
      if (expected < 0n) {
        // more discount than goods: refused, never sent
        expect(result.ok, `seed ${rng.seed}`).toBe(false);
        continue;
      }
      if (!result.ok) throw new Error(`seed ${rng.seed}: ${JSON.stringify(result.error)}`);
      const voucher = result.value;
      expect(
        voucher.items.map((i) => centsText(i.importe)),
        `seed ${rng.seed}`,
      ).toEqual(lines.map((line) => line.cents));
      // Imp_total = Σ Pro_total_item, to the cent
      const cmp = fexCmp(voucher, { id: n, cbteNro: 1, ptoVta: 7, cotizacion: "1050.25" });
      expect(centsText(cmp.Imp_total)).toBe(
        cmp.Items.reduce((sum, i) => sum + centsText(i.Pro_total_item), 0n),
      );
      expect(centsText(voucher.impTotal)).toBe(expected);
      issued++;
    }
    expect(issued).toBeGreaterThan(1_000);
  });
});
