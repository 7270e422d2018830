import { wsfe, type catalog } from "@pasarela/contracts";
import {
  fail,
  invalidField,
  ok,
  productoReferenceNotFound,
  productoWithoutAlicuota,
  type Result,
} from "@pasarela/errors";

/**
 * One line with every value it will be computed from: amounts and the rate as canonical
 * decimal text (see `wsfe.canonicalDecimal`), `alicuotaIva` a rate in % or how the line stays
 * out of VAT.
 */
export interface ResolvedItem {
  readonly productoId?: string;
  readonly codigo?: string;
  readonly descripcion: string;
  readonly cantidad: string;
  readonly precioUnitario: string;
  readonly alicuotaIva: string;
  readonly bonificacion: string;
  readonly unidadMedida?: string;
}

/** Every `productoId` the items name, once each, in order: what the catalog must resolve. */
export function productoIdsOf(items: readonly wsfe.FacturaItem[]): string[] {
  return [
    ...new Set(items.flatMap((item) => (item.productoId === undefined ? [] : [item.productoId]))),
  ];
}

/** A stored decimal as the contract keeps amounts; the catalog only stores valid ones. */
function stored(value: string | number): string {
  const text = wsfe.canonicalDecimal(value);
  if (text === undefined) throw new Error(`the catalog returned a malformed decimal: ${value}`);
  return text;
}

const sinProducto = "es obligatorio en un ítem sin productoId";

/**
 * Each item takes what its product has unless the item says otherwise (explicit wins). Products
 * the catalog did not find are absent from `productos`. A product without a VAT rate is a 400
 * unless the item sends one: the rate is never inferred.
 */
export function resolveItems(
  items: readonly wsfe.FacturaItem[],
  productos: ReadonlyMap<string, catalog.Producto>,
): Result<ResolvedItem[]> {
  // references first: a missing product is the answer even if another item lacks a value
  for (const item of items) {
    if (item.productoId !== undefined && !productos.has(item.productoId)) {
      return fail(productoReferenceNotFound(item.productoId));
    }
  }
  const resolved: ResolvedItem[] = [];
  for (const [index, item] of items.entries()) {
    const producto = item.productoId === undefined ? undefined : productos.get(item.productoId);
    const field = (name: string) => `items.${index}.${name}`;
    const descripcion = item.descripcion ?? producto?.descripcion;
    if (descripcion === undefined) return fail(invalidField(field("descripcion"), sinProducto));
    const precio = item.precioUnitario ?? producto?.precioUnitario;
    if (precio === undefined) return fail(invalidField(field("precioUnitario"), sinProducto));
    const storedRate = producto?.alicuotaIva;
    const alicuotaIva =
      item.alicuotaIva ??
      (storedRate === null || storedRate === undefined ? undefined : stored(storedRate));
    if (alicuotaIva === undefined) {
      return fail(
        item.productoId === undefined
          ? invalidField(field("alicuotaIva"), sinProducto)
          : productoWithoutAlicuota(item.productoId),
      );
    }
    const codigo = item.codigo ?? producto?.codigo ?? undefined;
    const unidadMedida = item.unidadMedida ?? producto?.unidadMedida ?? undefined;
    resolved.push({
      ...(item.productoId !== undefined ? { productoId: item.productoId } : {}),
      ...(codigo !== undefined ? { codigo } : {}),
      descripcion,
      cantidad: item.cantidad,
      precioUnitario: stored(precio),
      alicuotaIva,
      bonificacion: item.bonificacion ?? "0",
      ...(unidadMedida !== undefined ? { unidadMedida } : {}),
    });
  }
  return ok(resolved);
}
