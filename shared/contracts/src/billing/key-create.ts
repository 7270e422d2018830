import { z } from "zod";
import { defineContract } from "../contract.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";
import { keyScopeSchema } from "./key-scope.js";

/** `billing.key.create`: the only reply that ever carries the secret; it is not stored in clear. */
export const keyCreate = defineContract({
  subject: "billing.key.create",
  request: z.object({ accountId: idSchema, scope: keyScopeSchema }).strict(),
  reply: z.object({
    keyId: idSchema,
    prefix: z.string(),
    secret: z.string(),
    scope: keyScopeSchema,
    createdAt: isoDateTimeSchema,
  }),
  errors: ["ACCOUNT_NOT_FOUND"],
});
