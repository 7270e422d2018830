import { defineContract } from "../contract.js";
import { pageOf } from "./fields.js";
import { clienteFilterSchema, clienteSchema } from "./cliente.js";

/** `catalog.cliente.list`: the account's live clientes in creation order, one page at a time. */
export const clienteList = defineContract({
  subject: "catalog.cliente.list",
  request: clienteFilterSchema,
  reply: pageOf(clienteSchema),
  errors: ["INVALID_FIELD", "UNAUTHORIZED"],
  needsAccount: true,
});
