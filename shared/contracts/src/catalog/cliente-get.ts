import { z } from "zod";
import { defineContract } from "../contract.js";
import { catalogIdSchema } from "./fields.js";
import { clienteSchema } from "./cliente.js";

/**
 * `catalog.cliente.get`: a customer of the header's account by id. Unknown, malformed, another
 * account's and deleted ids all answer CLIENTE_NOT_FOUND; issuance resolves `clienteId` here.
 */
export const clienteGet = defineContract({
  subject: "catalog.cliente.get",
  request: z.object({ id: catalogIdSchema }).strict(),
  reply: clienteSchema,
  errors: ["CLIENTE_NOT_FOUND"],
  needsAccount: true,
  // asking again does no harm: a lost request is repeated after the silence, not waited out
  onSilence: "repeat",
});
