import { defineContract } from "../contract.js";
import { clienteInputSchema, clienteSchema } from "./cliente.js";

/** `catalog.cliente.create`: stores a customer for the account in the `account-id` header. */
export const clienteCreate = defineContract({
  subject: "catalog.cliente.create",
  request: clienteInputSchema,
  reply: clienteSchema,
  errors: ["CLIENTE_DUPLICATE", "INVALID_FIELD", "UNAUTHORIZED"],
  needsAccount: true,
});
