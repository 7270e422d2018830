import { z } from "zod";
import { defineContract } from "../contract.js";
import { idSchema } from "../common/fields.js";
import { keyScopeSchema } from "./key-scope.js";

/** `billing.key.verify`: who presents this secret; UNAUTHORIZED for unknown, wrong or revoked. */
export const keyVerify = defineContract({
  subject: "billing.key.verify",
  request: z.object({ secret: z.string().max(512) }).strict(),
  reply: z.object({ keyId: idSchema, accountId: idSchema, scope: keyScopeSchema }),
  errors: ["UNAUTHORIZED"],
  timeoutMs: 5_000,
});
