import { z } from "zod";
import { defineContract } from "../contract.js";
import { idSchema } from "../common/fields.js";
import { catalogIdSchema } from "./fields.js";

/**
 * `catalog.producto.delete`: logical; the id stops resolving for good. A second delete is PRODUCTO_NOT_FOUND.
 */
export const productoDelete = defineContract({
  subject: "catalog.producto.delete",
  request: z.object({ id: catalogIdSchema }).strict(),
  reply: z.object({ id: idSchema }),
  errors: ["PRODUCTO_NOT_FOUND"],
  needsAccount: true,
});
