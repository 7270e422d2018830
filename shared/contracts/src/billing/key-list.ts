import { z } from "zod";
import { defineContract } from "../contract.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";
import { keyScopeSchema } from "./key-scope.js";

/** `billing.key.list`: never a secret or a hash, only what identifies each key. */
export const keyList = defineContract({
  subject: "billing.key.list",
  request: z.object({ accountId: idSchema }).strict(),
  reply: z.object({
    keys: z.array(
      z
        .object({
          keyId: idSchema,
          prefix: z.string(),
          scope: keyScopeSchema,
          createdAt: isoDateTimeSchema,
          revokedAt: isoDateTimeSchema.nullable(),
          /** the key's latest call in the usage history, which is written a moment after it */
          lastUsedAt: isoDateTimeSchema.nullable(),
        })
        .strict(),
    ),
  }),
  errors: ["ACCOUNT_NOT_FOUND"],
});
