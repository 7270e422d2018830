import { z } from "zod";
import { defineContract } from "../contract.js";
import { catalogIdSchema } from "./fields.js";
import { productoChangesSchema, productoSchema } from "./producto.js";

/** `catalog.producto.update`: applies `changes` to a live producto and answers the result. */
export const productoUpdate = defineContract({
  subject: "catalog.producto.update",
  request: z.object({ id: catalogIdSchema, changes: productoChangesSchema }).strict(),
  reply: productoSchema,
  errors: ["PRODUCTO_NOT_FOUND"],
  needsAccount: true,
});
