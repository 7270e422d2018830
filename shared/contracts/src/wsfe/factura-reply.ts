import { z } from "zod";

const importeProblem = "debe ser un importe con exactamente 2 decimales";
/** An amount of the answer over NATS: decimal text with exactly two decimals ("1210.00"). */
const importeSchema = z.string().regex(/^\d+\.\d{2}$/, importeProblem);

/** An authority code and its text, as the authority worded it. */
const codigoMensajeSchema = z.object({ code: z.number().int(), msg: z.string() }).strict();
export type CodigoMensaje = z.output<typeof codigoMensajeSchema>;

const replyMoneda = <A extends z.ZodType>(amount: A) =>
  z
    .object({
      id: z.string(),
      cotizacion: amount.describe("Cotización usada: la enviada o la del día de la AFIP"),
      mismaMonedaExtranjera: z.boolean(),
    })
    .strict();

/**
 * What a voucher issued in contingency adds: it is authorized by the fortnight's CAEA and
 * informed to the authority afterwards. Absent on a voucher authorized by its own CAE.
 */
const contingencyShape = {
  tipoAutorizacion: z
    .literal("CAEA")
    .optional()
    .describe("CAEA en contingencia; ausente cuando el comprobante tiene CAE propio"),
  caea: z.string().optional().describe("El CAEA de la quincena, 14 dígitos"),
  caeaVencimiento: z
    .string()
    .optional()
    .describe("Fin de vigencia del CAEA (FchVigHasta), AAAAMMDD"),
};

const replyShape = <A extends z.ZodType, R extends z.ZodType>(amount: A, rate: R) => ({
  resultado: z.literal("A"),
  cae: z
    .string()
    .describe(
      "Código de autorización, 14 dígitos: el CAE del comprobante, o el CAEA cuando tipoAutorizacion es CAEA",
    ),
  caeVencimiento: z
    .string()
    .describe("Vencimiento del CAE, o del CAEA (FchVigHasta) en contingencia, AAAAMMDD"),
  ...contingencyShape,
  cbteNro: z.number().int(),
  ptoVta: z.number().int(),
  cbteTipo: z.number().int(),
  cbteFch: z.string().describe("AAAAMMDD"),
  impTotal: amount,
  impNeto: amount,
  impIVA: amount,
  impTrib: amount,
  impTotConc: amount,
  impOpEx: amount,
  moneda: replyMoneda(rate),
  observaciones: z
    .array(codigoMensajeSchema)
    .describe("Observaciones de la AFIP que acompañan la autorización; no son errores"),
  qr: z.string().describe("URL del código QR de la RG 4892"),
});

/**
 * The reply of `wsfe.factura.issue`: the authorized voucher, amounts as decimal text with two
 * decimals (they cross NATS exactly); the edge answers them as numbers (`facturaHttpReply`).
 */
export const facturaIssueReplySchema = z
  .object(replyShape(importeSchema, z.string().regex(/^\d+(\.\d+)?$/)))
  .strict();
export type FacturaIssueReply = z.output<typeof facturaIssueReplySchema>;

/** The 200 body of `POST /api/wsfe/facturas`: the reply with amounts as JSON numbers. */
export const facturaHttpReplySchema = z
  .object({
    ...replyShape(
      z.number().describe("Importe: número JSON con el valor decimal exacto, a dos decimales"),
      z.number().describe("Número JSON con el valor decimal exacto"),
    ),
    pdfUrl: z
      .url()
      .optional()
      .describe("Link al PDF, sin API key, que vence (POST /api/wsfe/comprobantes/pdf-link)"),
  })
  .strict();
export type FacturaHttpReply = z.output<typeof facturaHttpReplySchema>;

/**
 * The reply as the HTTP answer gives it. Amounts hold at most 13 integer digits and 2
 * decimals (wsfe refuses larger totals), so each JSON number prints back as the same decimal.
 */
export function facturaHttpReply(reply: FacturaIssueReply): FacturaHttpReply {
  return {
    ...reply,
    impTotal: Number(reply.impTotal),
    impNeto: Number(reply.impNeto),
    impIVA: Number(reply.impIVA),
    impTrib: Number(reply.impTrib),
    impTotConc: Number(reply.impTotConc),
    impOpEx: Number(reply.impOpEx),
    moneda: { ...reply.moneda, cotizacion: Number(reply.moneda.cotizacion) },
  };
}

/**
 * The 422 body when the authority rejects the voucher: the error shape plus
 * `resultado` R, `observaciones` and `errores` at top level.
 */
export const facturaRejectedBodySchema = z
  .object({
    error: z.string(),
    code: z.literal("AUTHORITY_REJECTED"),
    resultado: z.literal("R"),
    observaciones: z.array(codigoMensajeSchema),
    errores: z.array(codigoMensajeSchema),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/**
 * The 422 body of an authority rejection as `POST /api/wsfe/facturas` answers it, for a
 * rejection learnt from its event rather than from the answer (an Idempotency-Key replay).
 */
export function facturaRejectedHttpBody(
  error: { message: string },
  rejection: { observaciones: readonly CodigoMensaje[]; errores: readonly CodigoMensaje[] },
  voucher: { ptoVta: number; cbteTipo: number; cbteNro: number },
): z.output<typeof facturaRejectedBodySchema> {
  return {
    error: error.message,
    code: "AUTHORITY_REJECTED",
    resultado: "R",
    observaciones: rejection.observaciones.map(({ code, msg }) => ({ code, msg })),
    errores: rejection.errores.map(({ code, msg }) => ({ code, msg })),
    details: { ptoVta: voucher.ptoVta, cbteTipo: voucher.cbteTipo, cbteNro: voucher.cbteNro },
  };
}
