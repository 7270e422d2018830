import { bind, type Binding } from "@pasarela/bus";
import { catalog } from "@pasarela/contracts";
import type { Kysely } from "@pasarela/db";
import type { PageCursors } from "@pasarela/sealing";
import type { CatalogDatabase } from "./db/database.js";
import { makeClientesRepository } from "./db/repositories/clientes.js";
import { makeProductosRepository } from "./db/repositories/productos.js";
import { makeClienteCreate } from "./handlers/cliente-create.js";
import { makeClienteDelete } from "./handlers/cliente-delete.js";
import { makeClienteGet } from "./handlers/cliente-get.js";
import { makeClienteUpdate } from "./handlers/cliente-update.js";
import { makeList } from "./handlers/list.js";
import { makeProductoCreate } from "./handlers/producto-create.js";
import { makeProductoDelete } from "./handlers/producto-delete.js";
import { makeProductoGet } from "./handlers/producto-get.js";
import { makeProductoUpdate } from "./handlers/producto-update.js";

/** Wiring only: repositories and handlers bound to their subjects. */
export function catalogBindings(deps: {
  db: Kysely<CatalogDatabase>;
  cursors: PageCursors;
}): Binding[] {
  const clientes = makeClientesRepository(deps.db);
  const productos = makeProductosRepository(deps.db);
  return [
    bind(catalog.clienteCreate, makeClienteCreate(clientes)),
    bind(catalog.clienteList, makeList(catalog.clienteList.subject, deps.cursors, clientes)),
    bind(catalog.clienteGet, makeClienteGet(clientes)),
    bind(catalog.clienteUpdate, makeClienteUpdate(clientes)),
    bind(catalog.clienteDelete, makeClienteDelete(clientes)),
    bind(catalog.productoCreate, makeProductoCreate(productos)),
    bind(catalog.productoList, makeList(catalog.productoList.subject, deps.cursors, productos)),
    bind(catalog.productoGet, makeProductoGet(productos)),
    bind(catalog.productoUpdate, makeProductoUpdate(productos)),
    bind(catalog.productoDelete, makeProductoDelete(productos)),
  ];
}
