import { z } from "zod";
import { defineEvent } from "../contract.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";
import { quotaResourceSchema } from "./quota.js";

/** Shares of a period's quota whose crossing is announced, in per cent. */
export const CUOTA_UMBRALES = [80, 100] as const;
export type CuotaUmbral = (typeof CUOTA_UMBRALES)[number];

/**
 * `evt.billing.cuota.alerta`: a reservation took the account's use of `resource` in the
 * period to `umbral` per cent of its quota or beyond. Once per account, resource, period and
 * threshold: the id is `<account>:<resource>:<period start>:<umbral>`, recorded with the
 * reservation that crossed it and published after it. Only production is metered.
 */
export const cuotaAlerta = defineEvent({
  subject: "evt.billing.cuota.alerta",
  version: 1,
  schema: z
    .object({
      id: z.string(),
      version: z.literal(1),
      accountId: idSchema,
      resource: quotaResourceSchema,
      period: z.object({ start: isoDateTimeSchema, end: isoDateTimeSchema }).strict(),
      /** units used in the period with the reservation that crossed the threshold */
      used: z.number().int().min(0),
      /** the plan's quota of `resource` per period */
      limit: z.number().int().min(0),
      umbral: z.union([z.literal(80), z.literal(100)]),
      occurredAt: isoDateTimeSchema,
    })
    .strict(),
});

/** The id of one threshold of one period: the same for every instance that records it. */
export const cuotaAlertaId = (
  accountId: string,
  resource: string,
  periodStart: Date,
  umbral: CuotaUmbral,
): string => `${accountId}:${resource}:${periodStart.toISOString()}:${umbral}`;
