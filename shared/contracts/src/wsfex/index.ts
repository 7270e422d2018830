export { comprobanteGet, comprobanteReplySchema } from "./comprobante-get.js";
export { cbteTipoSchema, WSFEX_CBTE_TIPOS } from "./fields.js";
export { permisoReplySchema, permisoVerify } from "./permiso-verify.js";
export { ultimoComprobanteLast } from "./ultimo-comprobante-last.js";
export { fexCmpSchema, type FexCmp } from "./cmp.js";
export {
  parametroItemSchema,
  parametrosGet,
  parametrosOptionsSchema,
  parametrosProblem,
  parametrosReplySchema,
  tablaSchema,
  TABLAS,
  type ParametroItem,
  type Tabla,
} from "./parametros-get.js";
