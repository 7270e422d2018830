import { z } from "zod";
import { defineContract, defineEvent } from "../contract.js";
import { environmentSchema, idSchema, isoDateTimeSchema } from "../common/fields.js";
import { cursorSchema, limitSchema, pageOf } from "../catalog/fields.js";
import { accountUsageSchema } from "./plan.js";

/** One authenticated API call, as the usage history keeps it (never the key's secret). */
export const usageRecordSchema = z
  .object({
    id: idSchema,
    at: isoDateTimeSchema,
    keyId: idSchema
      .nullable()
      .describe("La API key de la llamada; null para un pago confirmado por el proveedor"),
    method: z.string(),
    route: z.string().describe("La ruta como está definida, p. ej. /api/clientes/:id"),
    environment: environmentSchema.nullable(),
    representada: z.string().nullable(),
    status: z.number().int(),
    code: z.string().nullable().describe("Código del catálogo de errores, si hubo error"),
    latencyMs: z.number(),
    quotaConsumed: z.boolean(),
  })
  .strict();
export type UsageRecord = z.infer<typeof usageRecordSchema>;

/** One call in a usage event: the record and the account it belongs to. */
export const usageCallSchema = usageRecordSchema.extend({ accountId: idSchema }).strict();
export type UsageCall = z.infer<typeof usageCallSchema>;

/**
 * `evt.edge.uso.registrado`: the edge's calls, published in batches after they were answered
 * (`llamadas`, up to 500). Billing inserts every call once per `id`.
 */
export const usoRegistrado = defineEvent({
  subject: "evt.edge.uso.registrado",
  version: 1,
  schema: z
    .object({
      id: idSchema,
      version: z.literal(1),
      llamadas: z.array(usageCallSchema).min(1).max(500),
    })
    .strict(),
});

/** Filters of the history (from/to, route, status, environment), newest first. */
export const usageFilterSchema = z
  .object({
    from: isoDateTimeSchema.optional().describe("Desde (inclusive), ISO 8601"),
    to: isoDateTimeSchema.optional().describe("Hasta (exclusive), ISO 8601"),
    route: z.string().min(1).max(200).optional().describe("Ruta exacta, p. ej. /api/wsfe/facturas"),
    status: z.number().int().min(100).max(599).optional(),
    environment: environmentSchema.optional(),
    limit: limitSchema,
    cursor: cursorSchema.optional(),
  })
  .strict();

/** `billing.usage.list`: the calling account's history, keyset-paginated. */
export const usageList = defineContract({
  subject: "billing.usage.list",
  request: usageFilterSchema,
  reply: pageOf(usageRecordSchema),
  errors: ["INVALID_FIELD", "UNAUTHORIZED"],
  needsAccount: true,
});

export const usageDaySchema = z
  .object({
    fecha: z.string().describe("Día en Argentina, AAAA-MM-DD"),
    total: z.number().int(),
    porStatus: z.record(z.string(), z.number().int()),
  })
  .strict();

/** `billing.usage.summary`: per-day counts by status and this period's quota used and left. */
export const usageSummary = defineContract({
  subject: "billing.usage.summary",
  request: z
    .object({ from: isoDateTimeSchema.optional(), to: isoDateTimeSchema.optional() })
    .strict(),
  reply: accountUsageSchema.omit({ accountId: true }).extend({ dias: z.array(usageDaySchema) }),
  errors: ["UNAUTHORIZED"],
  needsAccount: true,
});
