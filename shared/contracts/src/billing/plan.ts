import { z } from "zod";
import { defineContract } from "../contract.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";

/** Billing periods a plan may have, by name (the CLI's `--periodo`), in months. */
export const PERIODOS = {
  mensual: 1,
  bimestral: 2,
  trimestral: 3,
  semestral: 6,
  anual: 12,
} as const;
export const periodoSchema = z.enum(
  Object.keys(PERIODOS) as [keyof typeof PERIODOS, ...(keyof typeof PERIODOS)[]],
);
export type Periodo = z.infer<typeof periodoSchema>;

const planNameSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, "debe ser un nombre en minúsculas, dígitos, - o _");

export const planSchema = z
  .object({
    name: z.string(),
    facturas: z.number().int(),
    padrones: z.number().int(),
    periodo: periodoSchema,
    rejectionCapPerHour: z.number().int(),
  })
  .strict();
export type Plan = z.infer<typeof planSchema>;

/** `billing.plan.create`: a named plan; names are unique. */
export const planCreate = defineContract({
  subject: "billing.plan.create",
  request: z
    .object({
      name: planNameSchema,
      facturas: z.number().int().min(0).max(100_000_000),
      padrones: z.number().int().min(0).max(100_000_000),
      periodo: periodoSchema.default("mensual"),
      rejectionCapPerHour: z.number().int().min(0).max(1_000_000).default(50),
    })
    .strict(),
  reply: planSchema,
  errors: ["PLAN_DUPLICATE"],
});

/** `billing.plan.list`: every plan, by name. */
export const planList = defineContract({
  subject: "billing.plan.list",
  request: z.object({}).strict(),
  reply: z.object({ plans: z.array(planSchema) }).strict(),
  errors: [],
});

/** `billing.plan.assign`: the account's plan from now on (the period keeps its anchor). */
export const planAssign = defineContract({
  subject: "billing.plan.assign",
  request: z.object({ accountId: idSchema, plan: planNameSchema }).strict(),
  reply: z.object({ accountId: idSchema, plan: planSchema }).strict(),
  errors: ["ACCOUNT_NOT_FOUND", "PLAN_NOT_FOUND"],
});

const quotaUseSchema = z
  .object({ quota: z.number().int(), used: z.number().int(), left: z.number().int() })
  .strict();

export const accountUsageSchema = z
  .object({
    accountId: idSchema,
    plan: planSchema,
    periodStart: isoDateTimeSchema,
    periodEnd: isoDateTimeSchema,
    facturas: quotaUseSchema,
    padrones: quotaUseSchema,
  })
  .strict();
export type AccountUsage = z.infer<typeof accountUsageSchema>;

/** `billing.account.usage`: the plan and what was used of each quota this period. */
export const accountUsage = defineContract({
  subject: "billing.account.usage",
  request: z.object({ accountId: idSchema }).strict(),
  reply: accountUsageSchema,
  errors: ["ACCOUNT_NOT_FOUND"],
});
