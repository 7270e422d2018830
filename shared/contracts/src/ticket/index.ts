export { accessGet, accessTokenDigest } from "./access-get.js";
export { certificateCreate } from "./certificate-create.js";
export { certificadoActivado } from "./certificado-activado.event.js";
export {
  CERTIFICADO_AVISO_DIAS,
  certificadoPorVencer,
  certificadoVencido,
  type CertificadoAvisoDias,
} from "./certificado-aviso.event.js";
export {
  CERTIFICATE_EXPIRING_DAYS,
  certificadoEstadoSchema,
  conexionServicioSchema,
  conexionVerify,
  cuentaCertificadoCreate,
  cuentaRepresentadaCreate,
  cuentaRepresentadaGet,
  cuentaRepresentadaList,
  cuentaRepresentadaUpdate,
  representadaCuentaSchema,
  representadaDetalleSchema,
  type CertificadoEstado,
  type ConexionServicio,
  type RepresentadaCuenta,
} from "./cuenta.js";
export { aliasSchema, certificateStatusSchema, type CertificateStatus } from "./fields.js";
export { representadaCreate } from "./representada-create.js";
export { representadaGet } from "./representada-get.js";
export { representadaList } from "./representada-list.js";
export {
  emisorLogoSchema,
  emisorSchema,
  LOGO_MAX_BYTES,
  logoGet,
  logoSchema,
  perfilFields,
  perfilGet,
  perfilSchema,
  perfilSet,
  type Emisor,
  type Logo,
  type Perfil,
} from "./perfil.js";
export {
  CONTINGENCIA_PTOS_VENTA_MAX,
  contingenciaList,
  contingenciaSchema,
  SIN_CONTINGENCIA,
  type Contingencia,
} from "./contingencia.js";
