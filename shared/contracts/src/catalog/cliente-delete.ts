import { z } from "zod";
import { defineContract } from "../contract.js";
import { idSchema } from "../common/fields.js";
import { catalogIdSchema } from "./fields.js";

/**
 * `catalog.cliente.delete`: logical; the id stops resolving for good, and its docTipo+docNro is
 * free again. A second delete is CLIENTE_NOT_FOUND.
 */
export const clienteDelete = defineContract({
  subject: "catalog.cliente.delete",
  request: z.object({ id: catalogIdSchema }).strict(),
  reply: z.object({ id: idSchema }),
  errors: ["CLIENTE_NOT_FOUND"],
  needsAccount: true,
});
