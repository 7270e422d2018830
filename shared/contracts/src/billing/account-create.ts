import { z } from "zod";
import { defineContract } from "../contract.js";
import { idSchema } from "../common/fields.js";

/** `billing.account.create`: a new customer account of the gateway. */
export const accountCreate = defineContract({
  subject: "billing.account.create",
  request: z.object({ name: z.string().trim().min(1).max(200) }).strict(),
  reply: z.object({ accountId: idSchema }),
  errors: [],
});
