import type { wsfe } from "@pasarela/contracts";
import {
  ALICUOTAS_IVA,
  classCWithIva,
  fail,
  invalidField,
  issuanceAlicuotaNotAccepted,
  ok,
  totalsInvalid,
  type Result,
} from "@pasarela/errors";
import Big from "big.js";
import type { ResolvedItem } from "./items.js";

/** `AlicIva/Id` of each accepted rate (FEParamGetTiposIva). */
const ALIC_IVA_ID: Readonly<Record<(typeof ALICUOTAS_IVA)[number], number>> = {
  "0": 3,
  "2.5": 9,
  "5": 8,
  "10.5": 4,
  "21": 5,
  "27": 6,
};

const isAcceptedRate = (rate: string): rate is (typeof ALICUOTAS_IVA)[number] =>
  Object.hasOwn(ALIC_IVA_ID, rate);

/** Money as the voucher prints it: two decimals, half away from zero, from exact decimals. */
function cents(amount: Big): string {
  return amount.round(2, Big.roundHalfUp).toFixed(2);
}

/**
 * The largest total the gateway issues: 13 integer digits and 2 decimals are 15 significant
 * digits, which every JSON number (a double) prints back exactly.
 */
const MAX_IMPORTE = "9999999999999.99";

/** The voucher's header amounts (FECAEDetRequest fields 7–12), text with two decimals. */
export interface Totals {
  readonly impTotal: string;
  readonly impTotConc: string;
  readonly impNeto: string;
  readonly impOpEx: string;
  readonly impTrib: string;
  readonly impIVA: string;
}

/** One `Iva/AlicIva` entry: the taxed base of one rate and its VAT, each rounded once. */
export interface AlicIva {
  readonly id: number;
  /** the rate in %, for people: "21" */
  readonly alicuota: string;
  readonly baseImp: string;
  readonly importe: string;
}

/** One `Tributos/Tributo`, as checked. */
export interface Tributo {
  readonly id: number;
  readonly descripcion?: string;
  readonly baseImponible: string;
  readonly alicuota: string;
  readonly importe: string;
}

/** An item with its amount: `cantidad × precioUnitario − bonificacion`, rounded once. */
export interface PricedItem extends ResolvedItem {
  readonly importe: string;
}

export interface Computed {
  readonly items: PricedItem[];
  readonly totals: Totals;
  readonly iva: AlicIva[];
  readonly tributos: Tributo[];
}

/**
 * The amounts the authority checks (totals, VAT, tributes) computed so its equalities hold
 * exactly, not within its tolerance:
 * - each line is rounded half up to cents once, after its discount;
 * - per rate, the base is the sum of its rounded lines and the VAT is rounded once, so
 *   ΣBaseImp = ImpNeto and ΣImporte = ImpIVA hold to the cent and no half cent drifts;
 * - `no_gravado` lines add up to ImpTotConc, `exento` lines to ImpOpEx;
 * - class C (`classC`) discriminates no VAT: every rate must be 0, ImpNeto is the subtotal and
 *   no `Iva` entry is sent [10071];
 * - ImpTotal = ImpNeto + ImpIVA + ImpTrib + ImpTotConc + ImpOpEx [10048].
 */
export function computeTotals(args: {
  readonly cbteTipo: number;
  readonly classC: boolean;
  readonly fce: boolean;
  readonly items: readonly ResolvedItem[];
  readonly tributos: readonly wsfe.FacturaTributo[];
}): Result<Computed> {
  const { cbteTipo, classC } = args;
  if (args.items.length === 0) {
    return fail(totalsInvalid("items", "debe tener al menos un ítem"));
  }
  const priced: PricedItem[] = [];
  const bases = new Map<string, Big>();
  let noGravado = new Big(0);
  let exento = new Big(0);
  let subtotal = new Big(0);
  for (const [index, item] of args.items.entries()) {
    const field = `items.${index}`;
    const rate = item.alicuotaIva;
    if (rate !== "no_gravado" && rate !== "exento" && !isAcceptedRate(rate)) {
      return fail(issuanceAlicuotaNotAccepted(`${field}.alicuotaIva`, rate));
    }
    if (classC && rate !== "0") return fail(classCWithIva(`${field}.alicuotaIva`, cbteTipo, rate));
    const gross = new Big(item.cantidad).times(item.precioUnitario);
    const net = gross.minus(item.bonificacion);
    if (net.lt(0)) {
      return fail(
        totalsInvalid(
          `${field}.bonificacion`,
          `no puede superar cantidad × precioUnitario (${item.bonificacion} > ${gross.toFixed()})`,
        ),
      );
    }
    const importe = new Big(cents(net));
    priced.push({ ...item, importe: importe.toFixed(2) });
    subtotal = subtotal.plus(importe);
    if (rate === "no_gravado") noGravado = noGravado.plus(importe);
    else if (rate === "exento") exento = exento.plus(importe);
    else bases.set(rate, (bases.get(rate) ?? new Big(0)).plus(importe));
  }

  const iva: AlicIva[] = [];
  if (!classC) {
    for (const rate of ALICUOTAS_IVA) {
      const base = bases.get(rate);
      // a rate whose lines add up to 0 has no base to declare: BaseImp must be > 0 [10020]
      if (base === undefined || base.eq(0)) continue;
      iva.push({
        id: ALIC_IVA_ID[rate],
        alicuota: rate,
        baseImp: base.toFixed(2),
        importe: cents(base.times(rate).div(100)),
      });
    }
  }
  const impIVA = iva.reduce((sum, entry) => sum.plus(entry.importe), new Big(0));
  if (impIVA.eq(0) && iva.some((entry) => entry.id !== ALIC_IVA_ID["0"])) {
    const rates = iva.filter((e) => e.alicuota !== "0").map((e) => `${e.alicuota}%`);
    return fail(
      totalsInvalid(
        "items",
        `dan un IVA total de 0 con alícuotas distintas de 0 (${rates.join(", ")}): con ImpIVA 0 la AFIP solo admite la alícuota 0; revisá cantidades y precios o usá alícuota 0`,
      ),
    );
  }

  const tributos: Tributo[] = [];
  for (const [index, tributo] of args.tributos.entries()) {
    const field = `tributos.${index}`;
    if (tributo.descripcion === undefined && (tributo.id === 99 || args.fce)) {
      return fail(
        invalidField(
          `${field}.descripcion`,
          "es obligatorio para el tributo 99 (otro) y en comprobantes FCE",
        ),
      );
    }
    const expected = cents(new Big(tributo.baseImponible).times(tributo.alicuota).div(100));
    if (!new Big(tributo.importe).eq(expected)) {
      return fail(
        totalsInvalid(
          `${field}.importe`,
          `debe ser baseImponible × alicuota / 100 redondeado a 2 decimales: ${tributo.baseImponible} × ${tributo.alicuota}% = ${expected}, no ${tributo.importe}`,
          { expected },
        ),
      );
    }
    tributos.push({
      id: tributo.id,
      ...(tributo.descripcion !== undefined ? { descripcion: tributo.descripcion } : {}),
      baseImponible: new Big(tributo.baseImponible).toFixed(2),
      alicuota: tributo.alicuota,
      importe: expected,
    });
  }
  const impTrib = tributos.reduce((sum, t) => sum.plus(t.importe), new Big(0));
  if (tributos.length > 0 && impTrib.eq(0)) {
    return fail(
      totalsInvalid(
        "tributos",
        "suman 0: la AFIP no admite tributos cuando ImpTrib es 0 [10024]; quitá los tributos sin importe",
      ),
    );
  }

  const impNeto = classC ? subtotal : iva.reduce((sum, e) => sum.plus(e.baseImp), new Big(0));
  const impTotal = impNeto.plus(impIVA).plus(impTrib).plus(noGravado).plus(exento);
  if (impTotal.gt(MAX_IMPORTE)) {
    return fail(
      totalsInvalid(
        "items",
        `dan un total de ${impTotal.toFixed(2)}, mayor que el máximo que emite la pasarela (${MAX_IMPORTE})`,
      ),
    );
  }
  return ok({
    items: priced,
    totals: {
      impTotal: impTotal.toFixed(2),
      impTotConc: noGravado.toFixed(2),
      impNeto: impNeto.toFixed(2),
      impOpEx: exento.toFixed(2),
      impTrib: impTrib.toFixed(2),
      impIVA: impIVA.toFixed(2),
    },
    iva,
    tributos,
  });
}
