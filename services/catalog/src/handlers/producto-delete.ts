import type { Handler } from "@pasarela/bus";
import type { catalog } from "@pasarela/contracts";
import { appError, fail, ok } from "@pasarela/errors";
import type { ProductosRepository } from "../db/repositories/productos.js";
import { isRecordId } from "../domain/ids.js";

export function makeProductoDelete(
  productos: ProductosRepository,
): Handler<typeof catalog.productoDelete> {
  return async ({ id }, ctx) => {
    const deleted = isRecordId(id) && (await productos.softDelete(ctx.accountId, id));
    if (!deleted) return fail(appError("PRODUCTO_NOT_FOUND"));
    ctx.logger.info({ productoId: id }, "producto deleted");
    return ok({ id });
  };
}
