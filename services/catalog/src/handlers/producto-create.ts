import { randomUUID } from "node:crypto";
import type { Handler } from "@pasarela/bus";
import type { catalog } from "@pasarela/contracts";
import { ok } from "@pasarela/errors";
import type { ProductosRepository } from "../db/repositories/productos.js";

export function makeProductoCreate(
  productos: ProductosRepository,
): Handler<typeof catalog.productoCreate> {
  return async (input, ctx) => {
    const created = await productos.insert(ctx.accountId, randomUUID(), input);
    ctx.logger.info({ productoId: created.id }, "producto created");
    return ok(created);
  };
}
