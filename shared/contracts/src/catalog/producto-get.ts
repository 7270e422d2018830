import { z } from "zod";
import { defineContract } from "../contract.js";
import { catalogIdSchema } from "./fields.js";
import { productoSchema } from "./producto.js";

/**
 * `catalog.producto.get`: a product of the header's account by id. Unknown, malformed, another
 * account's and deleted ids all answer PRODUCTO_NOT_FOUND; issuance resolves `productoId` here.
 */
export const productoGet = defineContract({
  subject: "catalog.producto.get",
  request: z.object({ id: catalogIdSchema }).strict(),
  reply: productoSchema,
  errors: ["PRODUCTO_NOT_FOUND"],
  needsAccount: true,
  // asking again does no harm: a lost request is repeated after the silence, not waited out
  onSilence: "repeat",
});
