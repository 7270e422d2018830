import { defineContract } from "../contract.js";
import { productoInputSchema, productoSchema } from "./producto.js";

/** `catalog.producto.create`: stores a product for the account in the `account-id` header. */
export const productoCreate = defineContract({
  subject: "catalog.producto.create",
  request: productoInputSchema,
  reply: productoSchema,
  errors: ["UNAUTHORIZED"],
  needsAccount: true,
});
