import type { Migration } from "@pasarela/db";
import * as clientesYProductos from "./2026-11-22-01-clientes-y-productos.js";

export const schema = "catalog";

/** In order; names are dated so they sort as they were written. */
export const migrations: Record<string, Migration> = {
  "2026-11-22-01-clientes-y-productos": clientesYProductos,
};
