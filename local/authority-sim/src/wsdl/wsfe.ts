import { WSFE_NS } from "../wsfe/service.js";
import { withArray } from "./build.js";
import type { AsmxWsdlSpec, Field } from "./build.js";

const ERR_EVT: readonly Field[] = [
  ["Errors", "ArrayOfErr", true],
  ["Events", "ArrayOfEvt", true],
];

const DET_REQUEST: readonly Field[] = [
  ["Concepto", "int"],
  ["DocTipo", "int"],
  ["DocNro", "long"],
  ["CbteDesde", "long"],
  ["CbteHasta", "long"],
  ["CbteFch", "string"],
  ["ImpTotal", "double"],
  ["ImpTotConc", "double"],
  ["ImpNeto", "double"],
  ["ImpOpEx", "double"],
  ["ImpTrib", "double"],
  ["ImpIVA", "double"],
  ["FchServDesde", "string"],
  ["FchServHasta", "string"],
  ["FchVtoPago", "string"],
  ["MonId", "string"],
  ["MonCotiz", "double", true],
  ["CanMisMonExt", "string"],
  ["CondicionIVAReceptorId", "int", true],
  ["CbtesAsoc", "ArrayOfCbteAsoc"],
  ["Tributos", "ArrayOfTributo"],
  ["Iva", "ArrayOfAlicIva"],
  ["Opcionales", "ArrayOfOpcional"],
  ["Compradores", "ArrayOfComprador"],
  ["PeriodoAsoc", "Periodo"],
  ["Actividades", "ArrayOfActividad"],
];

const CAB_REQUEST: readonly Field[] = [
  ["CantReg", "int"],
  ["PtoVta", "int"],
  ["CbteTipo", "int"],
];

const CAB_RESPONSE: readonly Field[] = [
  ["Cuit", "long"],
  ["PtoVta", "int"],
  ["CbteTipo", "int"],
  ["FchProceso", "string"],
  ["CantReg", "int"],
  ["Resultado", "string"],
  ["Reproceso", "string"],
];

/** FEDetResponse: what the answer of every detail starts with. */
const DET_RESPONSE: readonly Field[] = [
  ["Concepto", "int"],
  ["DocTipo", "int"],
  ["DocNro", "long"],
  ["CbteDesde", "long"],
  ["CbteHasta", "long"],
  ["CbteFch", "string"],
  ["Resultado", "string"],
  ["Observaciones", "ArrayOfObs"],
];

const SIN_MOV: readonly Field[] = [
  ["CAEA", "string"],
  ["FchProceso", "string"],
  ["PtoVta", "int"],
];

/** The CAEA (contingency) types: the grant, the informed vouchers, the points without movement. */
const CAEA_TYPES: Record<string, readonly Field[]> = {
  FECAEARequest: [
    ["FeCabReq", "FECAEACabRequest"],
    ["FeDetReq", "ArrayOfFECAEADetRequest"],
  ],
  FECAEACabRequest: CAB_REQUEST,
  ArrayOfFECAEADetRequest: [["FECAEADetRequest", "FECAEADetRequest", true, true]],
  FECAEADetRequest: [...DET_REQUEST, ["CAEA", "string"], ["CbteFchHsGen", "string"]],
  FECAEAResponse: [
    ["FeCabResp", "FECAEACabResponse"],
    ["FeDetResp", "ArrayOfFECAEADetResponse"],
    ["Events", "ArrayOfEvt"],
    ["Errors", "ArrayOfErr"],
  ],
  FECAEACabResponse: CAB_RESPONSE,
  ArrayOfFECAEADetResponse: [["FECAEADetResponse", "FECAEADetResponse", true, true]],
  FECAEADetResponse: [...DET_RESPONSE, ["CAEA", "string"]],
  FECAEAGetResponse: [
    ["ResultGet", "FECAEAGet"],
    ["Errors", "ArrayOfErr"],
    ["Events", "ArrayOfEvt"],
  ],
  FECAEAGet: [
    ["CAEA", "string"],
    ["Periodo", "int"],
    ["Orden", "short"],
    ["FchVigDesde", "string"],
    ["FchVigHasta", "string"],
    ["FchTopeInf", "string"],
    ["FchProceso", "string"],
    ["Observaciones", "ArrayOfObs"],
  ],
  ...withArray("FECAEASinMov", SIN_MOV),
  FECAEASinMovConsResponse: [
    ["ResultGet", "ArrayOfFECAEASinMov"],
    ["Errors", "ArrayOfErr"],
    ["Events", "ArrayOfEvt"],
  ],
  FECAEASinMovResponse: [
    ...SIN_MOV,
    ["Resultado", "string"],
    ["Errors", "ArrayOfErr"],
    ["Events", "ArrayOfEvt"],
  ],
};

const CODE_MSG: readonly Field[] = [
  ["Code", "int"],
  ["Msg", "string"],
];

/** A FEParamGet* table: its row type, the array of rows and the response around them. */
const param = (item: string, idType: string): Record<string, readonly Field[]> => ({
  ...withArray(item, [
    ["Id", idType],
    ["Desc", "string"],
    ["FchDesde", "string"],
    ["FchHasta", "string"],
  ]),
  [`${item}Response`]: [["ResultGet", `ArrayOf${item}`], ...ERR_EVT],
});

const auth: Field = ["Auth", "FEAuthRequest"];

/** The project's WSFEv1 contract: the subset of operations the simulator implements. */
export const WSFE_WSDL: AsmxWsdlSpec = {
  ns: WSFE_NS,
  documentation: "pasarela authority simulator: WSFEv1 (subset)",
  types: {
    FEAuthRequest: [
      ["Token", "string"],
      ["Sign", "string"],
      ["Cuit", "long"],
    ],
    ...withArray("Err", CODE_MSG),
    ...withArray("Evt", CODE_MSG),
    ...withArray("Obs", CODE_MSG),
    FECAERequest: [
      ["FeCabReq", "FECAECabRequest"],
      ["FeDetReq", "ArrayOfFECAEDetRequest"],
    ],
    FECAECabRequest: CAB_REQUEST,
    ArrayOfFECAEDetRequest: [["FECAEDetRequest", "FECAEDetRequest", true, true]],
    FECAEDetRequest: DET_REQUEST,
    ...withArray("CbteAsoc", [
      ["Tipo", "int"],
      ["PtoVta", "int"],
      ["Nro", "long"],
      ["Cuit", "string"],
      ["CbteFch", "string"],
    ]),
    ...withArray("Tributo", [
      ["Id", "short"],
      ["Desc", "string"],
      ["BaseImp", "double"],
      ["Alic", "double"],
      ["Importe", "double"],
    ]),
    ...withArray("AlicIva", [
      ["Id", "int"],
      ["BaseImp", "double"],
      ["Importe", "double"],
    ]),
    ...withArray("Opcional", [
      ["Id", "string"],
      ["Valor", "string"],
    ]),
    ...withArray("Comprador", [
      ["DocTipo", "int"],
      ["DocNro", "long"],
      ["Porcentaje", "double"],
    ]),
    Periodo: [
      ["FchDesde", "string"],
      ["FchHasta", "string"],
    ],
    ...withArray("Actividad", [["Id", "long"]]),
    FECAEResponse: [
      ["FeCabResp", "FECAECabResponse"],
      ["FeDetResp", "ArrayOfFECAEDetResponse"],
      ["Events", "ArrayOfEvt"],
      ["Errors", "ArrayOfErr"],
    ],
    FECAECabResponse: CAB_RESPONSE,
    ArrayOfFECAEDetResponse: [["FECAEDetResponse", "FECAEDetResponse", true, true]],
    FECAEDetResponse: [...DET_RESPONSE, ["CAE", "string"], ["CAEFchVto", "string"]],
    FERecuperaLastCbteResponse: [
      ["PtoVta", "int"],
      ["CbteTipo", "int"],
      ["CbteNro", "int"],
      ...ERR_EVT,
    ],
    FECompConsultaReq: [
      ["CbteTipo", "int"],
      ["CbteNro", "long"],
      ["PtoVta", "int"],
    ],
    FECompConsultaResponse: [["ResultGet", "FECompConsResponse"], ...ERR_EVT],
    FECompConsResponse: [
      ...DET_REQUEST,
      ["Resultado", "string"],
      ["CodAutorizacion", "string"],
      ["EmisionTipo", "string"],
      ["FchVto", "string"],
      ["FchProceso", "string"],
      ["Observaciones", "ArrayOfObs"],
      ["PtoVta", "int"],
      ["CbteTipo", "int"],
    ],
    FERegXReqResponse: [["RegXReq", "int"], ...ERR_EVT],
    DummyResponse: [
      ["AppServer", "string"],
      ["DbServer", "string"],
      ["AuthServer", "string"],
    ],
    ...param("CbteTipo", "int"),
    ...param("ConceptoTipo", "int"),
    ...param("DocTipo", "int"),
    ...param("IvaTipo", "string"),
    ...param("Moneda", "string"),
    ...param("OpcionalTipo", "string"),
    ...param("TributoTipo", "short"),
    ...withArray("PtoVenta", [
      ["Nro", "int"],
      ["EmisionTipo", "string"],
      ["Bloqueado", "string"],
      ["FchBaja", "string"],
    ]),
    FEPtoVentaResponse: [["ResultGet", "ArrayOfPtoVenta"], ...ERR_EVT],
    Cotizacion: [
      ["MonId", "string"],
      ["MonCotiz", "double"],
      ["FchCotiz", "string"],
    ],
    FECotizacionResponse: [["ResultGet", "Cotizacion"], ...ERR_EVT],
    ...withArray("CondicionIvaReceptor", [
      ["Id", "int"],
      ["Desc", "string"],
      ["Cmp_Clase", "string"],
    ]),
    CondicionIvaReceptorResponse: [["ResultGet", "ArrayOfCondicionIvaReceptor"], ...ERR_EVT],
    ...withArray("PaisTipo", [
      ["Id", "short"],
      ["Desc", "string"],
    ]),
    FEPaisResponse: [["ResultGet", "ArrayOfPaisTipo"], ...ERR_EVT],
    ...withArray("ActividadesTipo", [
      ["Id", "long"],
      ["Orden", "short"],
      ["Desc", "string"],
    ]),
    FEActividadesResponse: [["ResultGet", "ArrayOfActividadesTipo"], ...ERR_EVT],
    ...CAEA_TYPES,
  },
  operations: {
    FECAESolicitar: { input: [auth, ["FeCAEReq", "FECAERequest"]], result: "FECAEResponse" },
    FECompTotXRequest: { input: [auth], result: "FERegXReqResponse" },
    FEDummy: { input: [], result: "DummyResponse" },
    FECompUltimoAutorizado: {
      input: [auth, ["PtoVta", "int"], ["CbteTipo", "int"]],
      result: "FERecuperaLastCbteResponse",
    },
    FECompConsultar: {
      input: [auth, ["FeCompConsReq", "FECompConsultaReq"]],
      result: "FECompConsultaResponse",
    },
    FEParamGetTiposCbte: { input: [auth], result: "CbteTipoResponse" },
    FEParamGetTiposConcepto: { input: [auth], result: "ConceptoTipoResponse" },
    FEParamGetTiposDoc: { input: [auth], result: "DocTipoResponse" },
    FEParamGetTiposIva: { input: [auth], result: "IvaTipoResponse" },
    FEParamGetTiposMonedas: { input: [auth], result: "MonedaResponse" },
    FEParamGetTiposOpcional: { input: [auth], result: "OpcionalTipoResponse" },
    FEParamGetTiposTributos: { input: [auth], result: "TributoTipoResponse" },
    FEParamGetPtosVenta: { input: [auth], result: "FEPtoVentaResponse" },
    FEParamGetCotizacion: {
      input: [auth, ["MonId", "string"], ["FchCotiz", "string"]],
      result: "FECotizacionResponse",
    },
    FEParamGetCondicionIvaReceptor: {
      input: [auth, ["ClaseCmp", "string"]],
      result: "CondicionIvaReceptorResponse",
    },
    FEParamGetTiposPaises: { input: [auth], result: "FEPaisResponse" },
    FEParamGetActividades: { input: [auth], result: "FEActividadesResponse" },
    FECAEASolicitar: {
      input: [auth, ["Periodo", "int"], ["Orden", "short"]],
      result: "FECAEAGetResponse",
    },
    FECAEAConsultar: {
      input: [auth, ["Periodo", "int"], ["Orden", "short"]],
      result: "FECAEAGetResponse",
    },
    FECAEARegInformativo: {
      input: [auth, ["FeCAEARegInfReq", "FECAEARequest"]],
      result: "FECAEAResponse",
    },
    FECAEASinMovimientoInformar: {
      input: [auth, ["PtoVta", "int"], ["CAEA", "string"]],
      result: "FECAEASinMovResponse",
    },
    FECAEASinMovimientoConsultar: {
      input: [auth, ["CAEA", "string"], ["PtoVta", "int"]],
      result: "FECAEASinMovConsResponse",
    },
  },
};
