import { defineContract } from "../contract.js";
import { pageOf } from "./fields.js";
import { productoFilterSchema, productoSchema } from "./producto.js";

/** `catalog.producto.list`: the account's live productos in creation order, one page at a time. */
export const productoList = defineContract({
  subject: "catalog.producto.list",
  request: productoFilterSchema,
  reply: pageOf(productoSchema),
  errors: ["INVALID_FIELD", "UNAUTHORIZED"],
  needsAccount: true,
});
