import { z } from "zod";
import { defineContract } from "../contract.js";
import {
  comprobanteKeyFields,
  copiaSchema,
  pdfDocumentSchema,
  pdfRenderErrors,
  PDF_RENDER_TIMEOUT_MS,
} from "./fields.js";

export const comprobanteRenderRequestSchema = z
  .object({ ...comprobanteKeyFields, copia: copiaSchema.optional() })
  .strict();

/**
 * `pdf.comprobante.render` (POST /api/wsfe/comprobantes/pdf): the printed voucher of an
 * authorized voucher this account (bus header) issued through the gateway. Rendered once and
 * stored; later calls are served from storage, byte for byte the same.
 */
export const comprobanteRender = defineContract({
  subject: "pdf.comprobante.render",
  request: comprobanteRenderRequestSchema,
  reply: pdfDocumentSchema,
  errors: pdfRenderErrors,
  timeoutMs: PDF_RENDER_TIMEOUT_MS,
  needsAccount: true,
});
