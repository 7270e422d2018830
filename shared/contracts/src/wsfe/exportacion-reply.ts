import { z } from "zod";

/** An authority code and its text, as the authority worded it. */
const codigoMensajeSchema = z.object({ code: z.number().int(), msg: z.string() }).strict();

const replyShape = <A extends z.ZodType, R extends z.ZodType>(amount: A, rate: R) => ({
  resultado: z.literal("A"),
  cae: z.string().describe("Código de autorización electrónico, 14 dígitos"),
  caeVencimiento: z.string().describe("Vencimiento del CAE, AAAAMMDD"),
  cbteNro: z.number().int(),
  ptoVta: z.number().int(),
  cbteTipo: z.number().int().describe("19 factura, 20 nota de débito, 21 nota de crédito"),
  cbteFch: z.string().describe("AAAAMMDD"),
  impTotal: amount,
  moneda: z.string().describe("Moneda del comprobante (FEXGetPARAM_MON), p. ej. DOL"),
  cotizacion: rate.describe("Cotización usada: la enviada o la del día de la AFIP"),
  observaciones: z
    .array(codigoMensajeSchema)
    .describe("Observaciones de la AFIP que acompañan la autorización; no son errores"),
  qr: z.string().describe("URL del código QR de la RG 4892"),
});

/**
 * The reply of `wsfe.exportacion.issue`: the authorized export voucher, the total and the
 * rate as exact decimal text (they cross NATS exactly); the edge answers them as numbers.
 */
export const exportacionIssueReplySchema = z
  .object(replyShape(z.string().regex(/^\d+\.\d{2}$/), z.string().regex(/^\d+(\.\d+)?$/)))
  .strict();
export type ExportacionIssueReply = z.output<typeof exportacionIssueReplySchema>;

/** The 200 body of `POST /api/wsfex/facturas`. */
export const exportacionHttpReplySchema = z
  .object({
    ...replyShape(
      z
        .number()
        .describe("Importe total: número JSON con el valor decimal exacto, a dos decimales"),
      z.number().describe("Número JSON con el valor decimal exacto"),
    ),
    pdfUrl: z
      .url()
      .optional()
      .describe("Link al PDF, sin API key, que vence (POST /api/wsfe/comprobantes/pdf-link)"),
  })
  .strict();
export type ExportacionHttpReply = z.output<typeof exportacionHttpReplySchema>;

/** The reply as the HTTP answer gives it (amounts of at most 13 integer digits print back). */
export function exportacionHttpReply(reply: ExportacionIssueReply): ExportacionHttpReply {
  return { ...reply, impTotal: Number(reply.impTotal), cotizacion: Number(reply.cotizacion) };
}
