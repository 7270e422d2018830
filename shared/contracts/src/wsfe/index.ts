export {
  comprobanteEmailSchema,
  comprobanteGet,
  comprobanteReplySchema,
} from "./comprobante-get.js";
export { canonicalDecimal } from "../common/decimal.js";
export {
  facturaBodySchema,
  type ComprobanteAsociado,
  type FacturaBody,
  type FacturaItem,
  type FacturaTributo,
  type Fce,
  type Moneda,
  type Opcional,
} from "./factura-body.js";
export {
  exportacionBodySchema,
  exportacionFields,
  INCOTERMS,
  type ExportacionAsociado,
  type ExportacionBody,
  type ExportacionCliente,
  type ExportacionItem,
  type Permiso,
} from "./exportacion-body.js";
export {
  exportacionHttpReply,
  exportacionHttpReplySchema,
  exportacionIssueReplySchema,
  type ExportacionHttpReply,
  type ExportacionIssueReply,
} from "./exportacion-reply.js";
export {
  facturaIssue,
  facturaIssueAnswerSchema,
  facturaIssueCallSchema,
  facturaIssueRequestSchema,
  type FacturaIssueAnswer,
  type FacturaIssueCall,
  type FacturaIssueRequest,
} from "./factura-issue.js";
export {
  facturaHttpReply,
  facturaHttpReplySchema,
  facturaIssueReplySchema,
  facturaRejectedBodySchema,
  facturaRejectedHttpBody,
  type CodigoMensaje,
  type FacturaHttpReply,
  type FacturaIssueReply,
} from "./factura-reply.js";
export {
  cbteNroSchema,
  cbteTipoSchema,
  FCE_CBTE_TIPOS,
  FCE_FACTURA_TIPOS,
  FCE_OPCIONALES,
  NOTA_TIPOS,
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
  comprobanteNoEmitido,
  comprobanteCaeaInformado,
  comprobanteCaeaRechazado,
  comprobanteRechazado,
} from "./comprobante-events.js";
export {
  answeredErrorSchema,
  emisionEventId,
  emisionTerminada,
  facturaAnswerSchema,
  facturaOutcomeSchema,
  type FacturaAnswer,
  type FacturaOutcome,
} from "./issuance-events.js";
export { emitidoGet, emitidoItemSchema, emitidoSchema, type Emitido } from "./emitido-get.js";
export { facturaGet } from "./factura-get.js";
export {
  EMAIL_CC_MAX,
  EMAIL_STATUSES,
  emailOptionsFields,
  emailSend,
  emailSendBodySchema,
  emailSendReplySchema,
  emailStatusSchema,
  emailUpdate,
  type EmailSendBody,
} from "./email-send.js";
export {
  emailGet,
  emailGetReplySchema,
  type EmailGetReply,
  type EmailGetRequest,
} from "./email-get.js";
export {
  comprobanteEstadoSchema,
  comprobanteList,
  comprobanteListFilters,
  comprobanteListItemSchema,
  type ComprobanteListItem,
} from "./comprobante-list.js";
export {
  issuedHttpReply,
  issuedHttpReplySchema,
  issuedReplySchema,
  type IssuedHttpReply,
  type IssuedReply,
} from "./issued-reply.js";
export { ISSUED_CBTE_TIPOS, isExportCbteTipo, issuedCbteTipoSchema } from "./issued-cbte-tipo.js";
export {
  exportacionIssue,
  exportacionIssueAnswerSchema,
  exportacionIssueCallSchema,
  exportacionIssueRequestSchema,
  type ExportacionIssueCall,
  type ExportacionIssueRequest,
} from "./exportacion-issue.js";
export {
  EMISION_ESTADOS,
  emisionAsyncSchema,
  emisionEnqueueReplySchema,
  emisionEstadoSchema,
  emisionFinalizada,
  emisionFinalizadaEventId,
  emisionGet,
  emisionList,
  emisionTipoSchema,
  exportacionEnqueue,
  facturaEnqueue,
  type EmisionAsync,
  type EmisionEnqueueReply,
  type EmisionEstado,
  type EmisionTipo,
} from "./emision-async.js";
export {
  caeaList,
  caeaNoObtenido,
  caeaNoObtenidoEventId,
  caeaSchema,
  contingenciaValidate,
  type Caea,
} from "./contingencia.js";
