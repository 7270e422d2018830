export {
  comprobanteEmailSchema,
  comprobanteGet,
  comprobanteReplySchema,
} from "./comprobante-get.js";
export {
  canonicalDecimal,
  facturaBodySchema,
  facturaHttpReply,
  facturaHttpReplySchema,
  facturaIssue,
  facturaIssueReplySchema,
  facturaIssueRequestSchema,
  facturaRejectedBodySchema,
  type CodigoMensaje,
  type ComprobanteAsociado,
  type FacturaBody,
  type FacturaHttpReply,
  type FacturaIssueReply,
  type FacturaIssueRequest,
  type FacturaItem,
  type FacturaTributo,
  type Fce,
  type Moneda,
  type Opcional,
} from "./factura-issue.js";
export {
  cbteNroSchema,
  cbteTipoSchema,
  ptoVtaSchema,
  TABLAS,
  tablaSchema,
  WSFE_CBTE_TIPOS,
  type Tabla,
} from "./fields.js";
export { parametroItemSchema, parametrosGet, parametrosReplySchema } from "./parametros-get.js";
export { ultimoComprobanteLast, ultimoComprobanteReplySchema } from "./ultimo-comprobante-last.js";
export {
  authorityNoteSchema,
  comprobanteAutorizado,
  comprobanteEventId,
  comprobanteRechazado,
} from "./comprobante-events.js";
