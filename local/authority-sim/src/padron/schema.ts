import type { PadronService } from "../state.js";

/**
 * The simulator's own contract of the registry services, from which both
 * its WSDLs (wsdl/jaxws.ts) and its answers (render.ts) are made, so the two cannot disagree.
 *
 * A field is [name, type, repeated?]; a type is an XSD scalar or a complex type of the same
 * service. Answer types list their fields in alphabetical order, which is how JAX-WS lays
 * them out (and so `metadata` comes last in the constancia); request types keep the order
 * the operations declare: token, sign, cuitRepresentada, then the parameters.
 */
export type JaxwsField = readonly [name: string, type: string, repeated?: boolean];

export const JAXWS_SCALARS = new Set(["string", "long", "int", "dateTime"]);

export interface JaxwsOperation {
  readonly input: readonly JaxwsField[];
  /** the single child of `<op>Response`: its element name and type */
  readonly output: JaxwsField;
}

export interface JaxwsServiceSpec {
  /** the WSAA service id whose TA the service accepts */
  readonly service: PadronService;
  readonly ns: string;
  /** path under the environment, as on the authority's host */
  readonly path: string;
  /** `PersonaServiceA13`, the WSDL's service name */
  readonly serviceName: string;
  readonly types: Readonly<Record<string, readonly JaxwsField[]>>;
  readonly operations: Readonly<Record<string, JaxwsOperation>>;
}

const CREDENTIALS: readonly JaxwsField[] = [
  ["token", "string"],
  ["sign", "string"],
  ["cuitRepresentada", "long"],
];

const byId: readonly JaxwsField[] = [...CREDENTIALS, ["idPersona", "long"]];

const METADATA: readonly JaxwsField[] = [
  ["fechaHora", "dateTime"],
  ["servidor", "string"],
];

const DUMMY: Readonly<Record<string, readonly JaxwsField[]>> = {
  dummyReturn: [
    ["appserver", "string"],
    ["authserver", "string"],
    ["dbserver", "string"],
  ],
};
const dummy: JaxwsOperation = { input: [], output: ["return", "dummyReturn"] };

export const A13: JaxwsServiceSpec = {
  service: "ws_sr_padron_a13",
  ns: "http://a13.soap.ws.server.puc.sr/",
  path: "/sr-padron/webservices/personaServiceA13",
  serviceName: "PersonaServiceA13",
  types: {
    ...DUMMY,
    metadata: METADATA,
    domicilio: [
      ["calle", "string"],
      ["codigoPostal", "string"],
      ["datoAdicional", "string"],
      ["descripcionProvincia", "string"],
      ["direccion", "string"],
      ["estadoDomicilio", "string"],
      ["idProvincia", "int"],
      ["localidad", "string"],
      ["manzana", "string"],
      ["numero", "int"],
      ["oficinaDptoLocal", "string"],
      ["piso", "string"],
      ["sector", "string"],
      ["tipoDatoAdicional", "string"],
      ["tipoDomicilio", "string"],
      ["torre", "string"],
    ],
    persona: [
      ["apellido", "string"],
      ["claveInactivaAsociada", "long", true],
      ["descripcionActividadPrincipal", "string"],
      ["domicilio", "domicilio", true],
      ["estadoClave", "string"],
      ["fechaContratoSocial", "dateTime"],
      ["fechaFallecimiento", "dateTime"],
      ["fechaNacimiento", "dateTime"],
      ["formaJuridica", "string"],
      ["idActividadPrincipal", "long"],
      ["idPersona", "long"],
      ["mesCierre", "int"],
      ["nombre", "string"],
      ["numeroDocumento", "string"],
      ["periodoActividadPrincipal", "int"],
      ["razonSocial", "string"],
      ["tipoClave", "string"],
      ["tipoDocumento", "string"],
      ["tipoPersona", "string"],
    ],
    personaReturn: [
      ["metadata", "metadata"],
      ["persona", "persona"],
    ],
    idPersonaListReturn: [
      ["idPersona", "long", true],
      ["metadata", "metadata"],
    ],
  },
  operations: {
    dummy,
    getPersona: { input: byId, output: ["personaReturn", "personaReturn"] },
    getIdPersonaListByDocumento: {
      input: [...CREDENTIALS, ["documento", "string"]],
      output: ["idPersonaListReturn", "idPersonaListReturn"],
    },
  },
};

export const A10: JaxwsServiceSpec = {
  service: "ws_sr_padron_a10",
  ns: "http://a10.soap.ws.server.puc.sr/",
  path: "/sr-padron/webservices/personaServiceA10",
  serviceName: "PersonaServiceA10",
  types: {
    ...DUMMY,
    metadata: METADATA,
    dependencia: [
      ["descripcionDependencia", "string"],
      ["idDependencia", "int"],
    ],
    domicilio: [
      ["codPostal", "string"],
      ["datoAdicional", "string"],
      ["descripcionProvincia", "string"],
      ["direccion", "string"],
      ["idProvincia", "int"],
      ["localidad", "string"],
      ["tipoDatoAdicional", "string"],
      ["tipoDomicilio", "string"],
    ],
    persona: [
      ["apellido", "string"],
      ["claveInactivaAsociada", "long", true],
      ["dependencia", "dependencia"],
      ["descripcionActividadPrincipal", "string"],
      ["domicilio", "domicilio", true],
      ["estadoClave", "string"],
      ["idActividadPrincipal", "long"],
      ["idPersona", "long"],
      ["nombre", "string"],
      ["numeroDocumento", "string"],
      ["razonSocial", "string"],
      ["tipoClave", "string"],
      ["tipoDocumento", "string"],
      ["tipoPersona", "string"],
    ],
    personaReturn: [
      ["metadata", "metadata"],
      ["persona", "persona"],
    ],
  },
  operations: {
    dummy,
    getPersona: { input: byId, output: ["personaReturn", "personaReturn"] },
  },
};

const ACTIVIDAD: readonly JaxwsField[] = [
  ["descripcionActividad", "string"],
  ["idActividad", "long"],
  ["nomenclador", "int"],
  ["orden", "int"],
  ["periodo", "int"],
];

const IMPUESTO: readonly JaxwsField[] = [
  ["descripcionImpuesto", "string"],
  ["idImpuesto", "int"],
  ["periodo", "int"],
];

const CONSTANCIA_PARTS: readonly JaxwsField[] = [
  ["datosGenerales", "datosGenerales"],
  ["datosMonotributo", "datosMonotributo"],
  ["datosRegimenGeneral", "datosRegimenGeneral"],
  ["errorConstancia", "errorConstancia"],
  ["errorMonotributo", "errorMonotributo"],
  ["errorRegimenGeneral", "errorRegimenGeneral"],
];

const byIds: readonly JaxwsField[] = [...CREDENTIALS, ["idPersona", "long", true]];

export const CONSTANCIA: JaxwsServiceSpec = {
  service: "ws_sr_constancia_inscripcion",
  ns: "http://a5.soap.ws.server.puc.sr/",
  path: "/sr-padron/webservices/personaServiceA5",
  serviceName: "PersonaServiceA5",
  types: {
    ...DUMMY,
    metadata: METADATA,
    actividad: ACTIVIDAD,
    impuesto: IMPUESTO,
    categoria: [
      ["descripcionCategoria", "string"],
      ["idCategoria", "int"],
      ["idImpuesto", "int"],
      ["periodo", "int"],
    ],
    domicilio: [
      ["codPostal", "string"],
      ["datoAdicional", "string"],
      ["descripcionProvincia", "string"],
      ["direccion", "string"],
      ["idProvincia", "int"],
      ["localidad", "string"],
      ["tipoDatoAdicional", "string"],
      ["tipoDomicilio", "string"],
    ],
    datosGenerales: [
      ["apellido", "string"],
      ["domicilioFiscal", "domicilio"],
      ["esSucesion", "string"],
      ["estadoClave", "string"],
      ["fechaContratoSocial", "dateTime"],
      ["fechaFallecimiento", "dateTime"],
      ["idPersona", "long"],
      ["mesCierre", "int"],
      ["nombre", "string"],
      ["razonSocial", "string"],
      ["tipoClave", "string"],
      ["tipoPersona", "string"],
    ],
    datosMonotributo: [
      ["actividad", "actividad", true],
      ["actividadMonotributista", "actividad"],
      ["categoriaMonotributo", "categoria"],
      ["impuesto", "impuesto", true],
    ],
    datosRegimenGeneral: [
      ["actividad", "actividad", true],
      ["impuesto", "impuesto", true],
    ],
    errorConstancia: [
      ["apellido", "string"],
      ["error", "string", true],
      ["idPersona", "long"],
      ["nombre", "string"],
    ],
    errorMonotributo: [
      ["error", "string", true],
      ["mensaje", "string"],
    ],
    errorRegimenGeneral: [
      ["error", "string", true],
      ["mensaje", "string"],
    ],
    personaReturn: [...CONSTANCIA_PARTS, ["metadata", "metadata"]],
    persona: CONSTANCIA_PARTS,
    personaListReturn: [
      ["metadata", "metadata"],
      ["persona", "persona", true],
    ],
  },
  operations: {
    dummy,
    getPersona: { input: byId, output: ["personaReturn", "personaReturn"] },
    getPersona_v2: { input: byId, output: ["personaReturn", "personaReturn"] },
    getPersonaList: { input: byIds, output: ["personaListReturn", "personaListReturn"] },
    getPersonaList_v2: { input: byIds, output: ["personaListReturn", "personaListReturn"] },
  },
};

export const PADRON_SPECS: readonly JaxwsServiceSpec[] = [A13, A10, CONSTANCIA];
