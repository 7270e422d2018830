import { z } from "zod";
import { defineContract, defineEvent } from "../contract.js";
import { idSchema, isoDateTimeSchema } from "../common/fields.js";
import { comprobanteKeyFields } from "../pdf/fields.js";

/** An amount as exact decimal text with two decimals ("1210.00"): never a binary float. */
export const montoTextSchema = z.string().regex(/^\d+\.\d{2}$/);

/**
 * An amount in a request: a JSON number or a decimal string with at most two decimals, above
 * zero; read as text so it never passes through binary floating point on our side.
 */
export const montoInputSchema = z
  .union([z.number(), z.string()])
  .transform((value, ctx) => {
    const text = typeof value === "number" ? String(value) : value.trim();
    if (!/^\d{1,13}(\.\d{1,2})?$/.test(text) || /^0+(\.0+)?$/.test(text)) {
      ctx.addIssue({
        code: "custom",
        message: "debe ser un importe mayor que cero con hasta dos decimales",
      });
      return z.NEVER;
    }
    return text;
  })
  .meta({
    description: "Importe a cobrar, hasta dos decimales; por omisión el total del comprobante",
    anyOf: [
      { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 10_000_000_000_000 },
      { type: "string", pattern: "^\\s*(?!0+(?:\\.0+)?\\s*$)\\d{1,13}(?:\\.\\d{1,2})?\\s*$" },
    ],
  });

export const LINK_ESTADOS = ["pendiente", "pagado", "vencido"] as const;
export const linkEstadoSchema = z.enum(LINK_ESTADOS);

/** A payment link as the API shows it. */
export const linkCobroSchema = z
  .object({
    id: idSchema,
    url: z.string().describe("Dirección de pago (Checkout Pro de Mercado Pago)"),
    estado: linkEstadoSchema,
    monto: montoTextSchema,
    moneda: z.literal("ARS"),
    vence: isoDateTimeSchema,
    comprobante: z.object(comprobanteKeyFields).strict(),
    pagadoAt: isoDateTimeSchema.nullable(),
    createdAt: isoDateTimeSchema,
  })
  .strict();
export type LinkCobro = z.output<typeof linkCobroSchema>;

const comprobanteFilterFields = {
  environment: comprobanteKeyFields.environment.optional(),
  representada: comprobanteKeyFields.representada.optional(),
  ptoVta: comprobanteKeyFields.ptoVta.optional(),
  cbteTipo: comprobanteKeyFields.cbteTipo.optional(),
  cbteNro: comprobanteKeyFields.cbteNro.optional(),
};

const vencimientoSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "debe ser una fecha AAAA-MM-DD")
  .describe("Último día para pagar (hora de Argentina); por omisión 30 días");

/**
 * `cobros.link.create` (POST /api/links-de-cobro): a Checkout Pro preference for an
 * authorized voucher the account (bus header) issued through the gateway.
 */
export const linkCreate = defineContract({
  subject: "cobros.link.create",
  request: z
    .object({
      ...comprobanteKeyFields,
      monto: montoInputSchema.optional(),
      vencimiento: vencimientoSchema.optional(),
    })
    .strict(),
  reply: linkCobroSchema,
  errors: [
    "INVALID_FIELD",
    "UNAUTHORIZED",
    "COMPROBANTE_NOT_FOUND",
    "COMPROBANTE_NO_AUTORIZADO",
    "PAYMENT_PROVIDER_NOT_CONFIGURED",
    "PAYMENT_PROVIDER_FAILED",
  ],
  timeoutMs: 20_000,
  needsAccount: true,
});

/** `cobros.link.get`: a link of the account; unknown, malformed and another account's alike. */
export const linkGet = defineContract({
  subject: "cobros.link.get",
  request: z.object({ id: z.string().max(100) }).strict(),
  reply: linkCobroSchema,
  errors: ["LINK_COBRO_NOT_FOUND"],
  needsAccount: true,
});

export const LINK_LIST_MAX = 200;

/**
 * `cobros.link.list`: the account's links, newest first, optionally of one state, of one
 * voucher (any of its five fields) or of a list of vouchers: their links and whether paid.
 */
export const linkList = defineContract({
  subject: "cobros.link.list",
  request: z
    .object({
      limit: z.number().int().min(1).max(LINK_LIST_MAX).default(50),
      estado: linkEstadoSchema.optional(),
      ...comprobanteFilterFields,
      /** only the links of these vouchers (a page of the voucher list, for example) */
      comprobantes: z
        .array(
          z
            .object({
              representada: comprobanteKeyFields.representada,
              ptoVta: comprobanteKeyFields.ptoVta,
              cbteTipo: comprobanteKeyFields.cbteTipo,
              cbteNro: comprobanteKeyFields.cbteNro,
            })
            .strict(),
        )
        .min(1)
        .max(100)
        .optional(),
    })
    .strict(),
  reply: z.object({ items: z.array(linkCobroSchema) }).strict(),
  errors: [],
  needsAccount: true,
});

/**
 * `cobros.webhook.receive`: a Mercado Pago notification as the edge received it, untrusted.
 * The signature is checked against the account's secret before anything else; the payment's
 * state is then fetched from the provider. `accepted` false means ignored (and logged).
 */
export const webhookReceive = defineContract({
  subject: "cobros.webhook.receive",
  request: z
    .object({
      cuenta: z.string().max(100),
      dataId: z.string().max(100).optional(),
      type: z.string().max(100).optional(),
      xSignature: z.string().max(1000).optional(),
      xRequestId: z.string().max(200).optional(),
    })
    .strict(),
  reply: z.object({ accepted: z.boolean() }).strict(),
  errors: ["PAYMENT_PROVIDER_FAILED"],
  timeoutMs: 20_000,
});

/** `cobros.cuenta.set` (operator): the account's Mercado Pago credentials, stored sealed. */
export const cuentaSet = defineContract({
  subject: "cobros.cuenta.set",
  request: z
    .object({
      accountId: idSchema,
      accessToken: z.string().trim().min(10).max(500),
      webhookSecret: z.string().trim().min(8).max(500),
    })
    .strict(),
  reply: z
    .object({
      accountId: idSchema,
      provider: z.literal("mercadopago"),
      webhookUrl: z.string(),
    })
    .strict(),
  errors: [],
});

/**
 * `evt.cobros.link.pagado`: the provider confirmed the payment of a link (state fetched from
 * it, never taken from a notification). Billing's usage history shows it and the webhooks
 * service delivers it as `cobro.pagado`; `id` is one per link.
 */
export const linkPagado = defineEvent({
  subject: "evt.cobros.link.pagado",
  version: 1,
  schema: z.object({
    id: z.string(),
    version: z.literal(1),
    linkId: idSchema,
    accountId: idSchema,
    ...comprobanteKeyFields,
    monto: montoTextSchema,
    moneda: z.literal("ARS"),
    provider: z.literal("mercadopago"),
    paymentId: z.string(),
    pagadoAt: isoDateTimeSchema,
    /** the link as `cobros.link.get` answers it once paid (absent in events published before it) */
    link: linkCobroSchema.optional(),
  }),
});
