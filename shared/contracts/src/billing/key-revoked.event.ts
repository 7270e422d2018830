import { z } from "zod";
import { defineEvent } from "../contract.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";

/** `evt.billing.key.revoked`: caches of verified keys drop this key on receipt. */
export const keyRevoked = defineEvent({
  subject: "evt.billing.key.revoked",
  version: 1,
  schema: z.object({
    id: z.string(),
    version: z.literal(1),
    keyId: idSchema,
    accountId: idSchema,
    revokedAt: isoDateTimeSchema,
  }),
});
