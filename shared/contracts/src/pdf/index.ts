export { comprobanteRender, comprobanteRenderRequestSchema } from "./comprobante-render.js";
export {
  comprobanteKeyFields,
  comprobanteKeySchema,
  COPIAS,
  copiaSchema,
  pdfDocumentSchema,
  pdfRenderErrors,
  PDF_RENDER_TIMEOUT_MS,
  type ComprobanteKey,
  type Copia,
  type PdfDocument,
} from "./fields.js";
export { linkCreate, linkOpen, pdfLinkSchema, pdfLinkTokenSchema, type PdfLink } from "./link.js";
