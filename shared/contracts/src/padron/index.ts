export { clienteDesdeConstancia, domicilioEnUnaLinea, razonSocialDeConstancia } from "./cliente.js";
export {
  byDocumentoRequestSchema,
  byIdRequestSchema,
  documentoSchema,
  idPersonaSchema,
  padronLookupErrors,
} from "./fields.js";
export { a10Get, a13Get, constanciaGet, documentoList, documentoReplySchema } from "./lookups.js";
export {
  actividadSchema,
  categoriaSchema,
  constanciaSchema,
  dependenciaSchema,
  domicilioSchema,
  impuestoSchema,
  personaA10Schema,
  personaA13Schema,
  type Actividad,
  type Constancia,
  type Domicilio,
  type PersonaA10,
  type PersonaA13,
} from "./persona.js";
