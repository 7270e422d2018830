/**
 * Export issuance (WSFEXv1: Factura E 19, notes 20 and 21), pure: what the gateway decides
 * about an export voucher before and after the authority, with no NATS, SOAP or database. The
 * flow resolves references through the catalog, numbers the voucher and calls the authority;
 * everything it sends, stores and answers is computed here.
 */
export {
  prepareExportacion,
  referencedExportIds,
  type ExportacionReferences,
  type ExportacionRequest,
  type PreparedExportacion,
} from "./prepare.js";
export {
  conceptoOfTipoExpo,
  exportReceptorDoc,
  fexCmp,
  isExportacion,
  summaryOf,
  type ExportacionNumbering,
} from "./cmp.js";
export { exportacionQr, exportacionReply, type ExportacionAuthorization } from "./reply.js";
export { emitidoOfExportacion } from "./emitido.js";
export { isSameExportacion, type HeldExportacion } from "./reconciliation.js";
export type { ClienteExterior } from "./cliente.js";
export { MAX_IMPORTE, SPECIAL_UNITS, type ExportacionLine } from "./items.js";
export { PESOS, type ExportacionMoneda } from "./rules.js";
