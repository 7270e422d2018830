import { z } from "zod";
import { defineContract } from "../contract.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";

/** `billing.key.revoke`: idempotent; the key stops authenticating everywhere at once. */
export const keyRevoke = defineContract({
  subject: "billing.key.revoke",
  request: z.object({ keyId: idSchema }).strict(),
  reply: z.object({ keyId: idSchema, revoked: z.literal(true), revokedAt: isoDateTimeSchema }),
  errors: ["KEY_NOT_FOUND"],
});
