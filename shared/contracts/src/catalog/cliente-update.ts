import { z } from "zod";
import { defineContract } from "../contract.js";
import { catalogIdSchema } from "./fields.js";
import { clienteChangesSchema, clienteSchema } from "./cliente.js";

/** `catalog.cliente.update`: applies `changes` to a live cliente and answers the result. */
export const clienteUpdate = defineContract({
  subject: "catalog.cliente.update",
  request: z.object({ id: catalogIdSchema, changes: clienteChangesSchema }).strict(),
  reply: clienteSchema,
  errors: ["CLIENTE_DUPLICATE", "INVALID_FIELD", "CLIENTE_NOT_FOUND"],
  needsAccount: true,
});
