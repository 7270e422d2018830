import type { Handler } from "@pasarela/bus";
import type { catalog } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { ProductosRepository } from "../db/repositories/productos.js";
import { isRecordId } from "../domain/ids.js";

export function makeProductoUpdate(
  productos: ProductosRepository,
): Handler<typeof catalog.productoUpdate> {
  return async ({ id, changes }, ctx) => {
    const producto = isRecordId(id)
      ? await productos.update(ctx.accountId, id, changes)
      : undefined;
    return producto ? ok(producto) : fail(appError("PRODUCTO_NOT_FOUND"));
  };
}
