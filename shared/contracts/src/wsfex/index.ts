export { comprobanteGet, comprobanteReplySchema } from "./comprobante-get.js";
export { cbteTipoSchema, WSFEX_CBTE_TIPOS } from "./fields.js";
export { permisoReplySchema, permisoVerify } from "./permiso-verify.js";
export { ultimoComprobanteLast } from "./ultimo-comprobante-last.js";
export { fexCmpSchema, type FexCmp } from "./cmp.js";
