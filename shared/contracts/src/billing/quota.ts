import { z } from "zod";
import { defineContract } from "../contract.js";
import { environmentSchema } from "../common/fields.js";

/** What a plan meters per period: vouchers with a CAE and successful registry lookups. */
export const quotaResourceSchema = z.enum(["facturas", "padrones"]);
export type QuotaResource = z.infer<typeof quotaResourceSchema>;

/**
 * `billing.quota.reserve`: one unit of the account's quota for a call about to reach the
 * authority, held under `ref` until committed or released (or until it expires, so a crash
 * never leaks it). Outside production nothing is metered and `metered` is false.
 */
export const quotaReserve = defineContract({
  subject: "billing.quota.reserve",
  request: z
    .object({
      resource: quotaResourceSchema,
      environment: environmentSchema,
      ref: z.string().min(1).max(200),
    })
    .strict(),
  reply: z.object({ metered: z.boolean() }).strict(),
  errors: ["UNAUTHORIZED", "QUOTA_FACTURAS_EXHAUSTED", "QUOTA_PADRONES_EXHAUSTED"],
  timeoutMs: 5_000,
  needsAccount: true,
});

const holdRequest = z.object({ ref: z.string().min(1).max(200) }).strict();

/** `billing.quota.commit`: the call succeeded (200); its unit counts. Idempotent. */
export const quotaCommit = defineContract({
  subject: "billing.quota.commit",
  request: holdRequest,
  reply: z.object({ committed: z.boolean() }).strict(),
  errors: [],
  timeoutMs: 5_000,
});

/** `billing.quota.release`: the call failed; its unit never counts. Idempotent. */
export const quotaRelease = defineContract({
  subject: "billing.quota.release",
  request: holdRequest,
  reply: z.object({ released: z.boolean() }).strict(),
  errors: [],
  timeoutMs: 5_000,
});
