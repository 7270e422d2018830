import { wsfe, type catalog } from "@pasarela/contracts";
import {
  fail,
  invalidField,
  ok,
  productoReferenceNotFound,
  totalsInvalid,
  type Result,
} from "@pasarela/errors";
import Big from "big.js";

/**
 * Units that carry no quantity nor price (FEXGetPARAM_UMed): 0, 97 (seña/anticipo) and 99
 * (bonificación). Such a line is only its discount, a negative amount.
 */
export const SPECIAL_UNITS: ReadonlySet<number> = new Set([0, 97, 99]);

/**
 * The largest amount the gateway issues: 13 integer digits and 2 decimals are 15 significant
 * digits, which every JSON number (a double) prints back exactly.
 */
export const MAX_IMPORTE = "9999999999999.99";

/** One line as sent (`Items/Item`): amounts as canonical decimal text, `importe` in cents. */
export interface ExportacionLine {
  readonly productoId?: string;
  readonly codigo?: string;
  readonly descripcion: string;
  readonly cantidad: string;
  /** the authority's unit code (FEXGetPARAM_UMed) */
  readonly unidadMedida: number;
  readonly precioUnitario: string;
  readonly bonificacion: string;
  /** `cantidad × precioUnitario − bonificacion`, rounded half up to cents once */
  readonly importe: string;
}

/** Every `productoId` the items name, once each, in order: what the catalog must resolve. */
export function productoIdsOf(items: readonly wsfe.ExportacionItem[]): string[] {
  return [
    ...new Set(items.flatMap((item) => (item.productoId === undefined ? [] : [item.productoId]))),
  ];
}

/** A stored decimal as the contract keeps amounts; the catalog only stores valid ones. */
function stored(value: string): string {
  const text = wsfe.canonicalDecimal(value);
  if (text === undefined) throw new Error(`the catalog returned a malformed decimal: ${value}`);
  return text;
}

/** A product's unit is free text; it serves an export line only when it is a unit code. */
function unitCode(unidadMedida: string | null | undefined): number | undefined {
  return unidadMedida !== null && unidadMedida !== undefined && /^\d{1,2}$/.test(unidadMedida)
    ? Number(unidadMedida)
    : undefined;
}

/** Money as the voucher prints it: two decimals, half away from zero, from exact decimals. */
const cents = (amount: Big): Big => amount.round(2, Big.roundHalfUp);

const sinProducto = "es obligatorio en un ítem sin productoId";

/**
 * Each item takes what its product has unless the item says otherwise (explicit wins); a
 * product not found is the 400 of the catalogue, before any missing value. A missing value is
 * a 400 naming it. Special units (0, 97, 99) take no price: it defaults to 0.
 */
export function resolveExportItems(
  items: readonly wsfe.ExportacionItem[],
  productos: ReadonlyMap<string, catalog.Producto>,
): Result<Omit<ExportacionLine, "importe">[]> {
  for (const item of items) {
    if (item.productoId !== undefined && !productos.has(item.productoId)) {
      return fail(productoReferenceNotFound(item.productoId));
    }
  }
  const resolved: Omit<ExportacionLine, "importe">[] = [];
  for (const [index, item] of items.entries()) {
    const producto = item.productoId === undefined ? undefined : productos.get(item.productoId);
    const field = (name: string) => `items.${index}.${name}`;
    const descripcion = item.descripcion ?? producto?.descripcion;
    if (descripcion === undefined) return fail(invalidField(field("descripcion"), sinProducto));
    const unidadMedida = item.unidadMedida ?? unitCode(producto?.unidadMedida);
    if (unidadMedida === undefined) {
      return fail(
        invalidField(
          field("unidadMedida"),
          producto === undefined
            ? `${sinProducto}: el código de unidad de FEXGetPARAM_UMed (p. ej. 7 unidades)`
            : `es obligatorio: la unidad del producto ${producto.id} no es un código de unidad de la AFIP (FEXGetPARAM_UMed)`,
        ),
      );
    }
    const precio =
      item.precioUnitario ??
      (producto !== undefined ? stored(producto.precioUnitario) : undefined) ??
      (SPECIAL_UNITS.has(unidadMedida) ? "0" : undefined);
    if (precio === undefined) return fail(invalidField(field("precioUnitario"), sinProducto));
    const codigo = item.codigo ?? producto?.codigo ?? undefined;
    resolved.push({
      ...(item.productoId !== undefined ? { productoId: item.productoId } : {}),
      ...(codigo !== undefined ? { codigo } : {}),
      descripcion,
      cantidad: item.cantidad,
      unidadMedida,
      precioUnitario: precio,
      bonificacion: item.bonificacion ?? "0",
    });
  }
  return ok(resolved);
}

/**
 * Each line's amount and the voucher's total, exactly: a line is `cantidad × precioUnitario −
 * bonificacion` in exact decimals, rounded half up to cents once (the authority accepts a cent
 * either way [1760–1817]); `impTotal` is the exact sum of the rounded lines, so Imp_total =
 * Σ Pro_total_item holds to the cent [1610]. A special-unit line (0, 97, 99) has no quantity
 * nor price and amounts to `−bonificacion`; any other line's discount cannot exceed its gross.
 */
export function priceExportItems(
  items: readonly Omit<ExportacionLine, "importe">[],
): Result<{ items: ExportacionLine[]; impTotal: string }> {
  if (items.length === 0) return fail(totalsInvalid("items", "debe tener al menos un ítem"));
  const priced: ExportacionLine[] = [];
  let total = new Big(0);
  for (const [index, item] of items.entries()) {
    const field = `items.${index}`;
    let importe: Big;
    if (SPECIAL_UNITS.has(item.unidadMedida)) {
      const why = `con la unidad ${item.unidadMedida} (sin cantidad ni precio: el ítem es solo su bonificación)`;
      if (!new Big(item.cantidad).eq(0)) {
        return fail(totalsInvalid(`${field}.cantidad`, `debe ser 0 ${why}`));
      }
      if (!new Big(item.precioUnitario).eq(0)) {
        return fail(totalsInvalid(`${field}.precioUnitario`, `debe ser 0 ${why}`));
      }
      importe = cents(new Big(item.bonificacion).neg());
    } else {
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
      importe = cents(net);
    }
    if (importe.abs().gt(MAX_IMPORTE)) {
      return fail(
        totalsInvalid(
          field,
          `da un importe de ${importe.toFixed(2)}, mayor que el máximo que emite la pasarela (${MAX_IMPORTE})`,
        ),
      );
    }
    // a zero amount is printed unsigned
    priced.push({ ...item, importe: importe.eq(0) ? "0.00" : importe.toFixed(2) });
    total = total.plus(importe);
  }
  if (total.gt(MAX_IMPORTE)) {
    return fail(
      totalsInvalid(
        "items",
        `dan un total de ${total.toFixed(2)}, mayor que el máximo que emite la pasarela (${MAX_IMPORTE})`,
      ),
    );
  }
  if (total.lt(0)) {
    return fail(
      totalsInvalid(
        "items",
        `dan un total negativo (${total.toFixed(2)}): las bonificaciones superan a los demás ítems`,
      ),
    );
  }
  return ok({ items: priced, impTotal: total.toFixed(2) });
}
