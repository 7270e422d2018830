export {
  clienteChangesSchema,
  clienteFilterSchema,
  clienteInputSchema,
  clienteSchema,
  type Cliente,
  type ClienteChanges,
  type ClienteFilter,
  type ClienteInput,
} from "./cliente.js";
export { clienteCreate } from "./cliente-create.js";
export { clienteDelete } from "./cliente-delete.js";
export { clienteGet } from "./cliente-get.js";
export { clienteList } from "./cliente-list.js";
export { clienteUpdate } from "./cliente-update.js";
export * from "./fields.js";
export {
  productoChangesSchema,
  productoFilterSchema,
  productoInputSchema,
  productoSchema,
  type Producto,
  type ProductoChanges,
  type ProductoFilter,
  type ProductoInput,
} from "./producto.js";
export { productoCreate } from "./producto-create.js";
export { productoDelete } from "./producto-delete.js";
export { productoGet } from "./producto-get.js";
export { productoList } from "./producto-list.js";
export { productoUpdate } from "./producto-update.js";
