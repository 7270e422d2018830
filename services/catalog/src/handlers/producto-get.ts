import type { Handler } from "@pasarela/bus";
import type { catalog } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { ProductosRepository } from "../db/repositories/productos.js";
import { isRecordId } from "../domain/ids.js";

export function makeProductoGet(
  productos: ProductosRepository,
): Handler<typeof catalog.productoGet> {
  return async ({ id }, ctx) => {
    const producto = isRecordId(id) ? await productos.find(ctx.accountId, id) : undefined;
    return producto ? ok(producto) : fail(appError("PRODUCTO_NOT_FOUND"));
  };
}
