import { WSFEX_NS } from "../wsfex/service.js";
import { withArray } from "./build.js";
import type { AsmxWsdlSpec, Field } from "./build.js";

const ERR_EVT: readonly Field[] = [
  ["FEXErr", "ClsFEXErr", true],
  ["FEXEvents", "ClsFEXEvents", true],
];

const auth: Field = ["Auth", "ClsFEXAuthRequest"];

const AUTH_FIELDS: readonly Field[] = [
  ["Token", "string"],
  ["Sign", "string"],
  ["Cuit", "long"],
];

/** The run of fields ClsFEXRequest (FEXAuthorize) and ClsFEXGetCMPR (FEXGetCMP) share. */
const CMP_HEAD: readonly Field[] = [
  ["Tipo_expo", "short"],
  ["Permiso_existente", "string"],
  ["Permisos", "ArrayOfPermiso"],
  ["Dst_cmp", "short"],
  ["Cliente", "string"],
  ["Cuit_pais_cliente", "long"],
  ["Domicilio_cliente", "string"],
  ["Id_impositivo", "string"],
  ["Moneda_Id", "string"],
  ["Moneda_ctz", "decimal"],
];

const CMP_TAIL: readonly Field[] = [
  ["Obs_comerciales", "string"],
  ["Imp_total", "decimal"],
  ["Obs", "string"],
  ["Cmps_asoc", "ArrayOfCmp_asoc"],
  ["Forma_pago", "string"],
  ["Incoterms", "string"],
  ["Incoterms_Ds", "string"],
  ["Idioma_cbte", "short"],
  ["Items", "ArrayOfItem"],
];

/** `<Prefix>_Id`, `_Ds`, `_vig_desde`, `_vig_hasta`: the shape of most parameter tables. */
const vigencia = (prefix: string, idType: string): readonly Field[] => [
  [`${prefix}_Id`, idType],
  [`${prefix}_Ds`, "string"],
  [`${prefix}_vig_desde`, "string"],
  [`${prefix}_vig_hasta`, "string"],
];

/**
 * FEXGetPARAM_<op>: Auth (plus `extra` inputs) in, `FEXResultGet` of type `result` (a list
 * of `ClsFEXResponse_<row>` unless `single`) plus FEXErr/FEXEvents out.
 */
interface ParamSpec {
  response: string;
  row: string;
  fields: readonly Field[];
  extra?: readonly Field[];
  single?: boolean;
}

const PARAMS: Readonly<Record<string, ParamSpec>> = {
  Cbte_Tipo: {
    response: "FEXResponse_Cbte_Tipo",
    row: "Cbte_Tipo",
    fields: vigencia("Cbte", "short"),
  },
  Tipo_Expo: { response: "FEXResponse_Tex", row: "Tex", fields: vigencia("Tex", "short") },
  Incoterms: { response: "FEXResponse_Inc", row: "Inc", fields: vigencia("Inc", "string") },
  Idiomas: { response: "FEXResponse_Idi", row: "Idi", fields: vigencia("Idi", "short") },
  UMed: { response: "FEXResponse_Umed", row: "UMed", fields: vigencia("Umed", "short") },
  DST_pais: {
    response: "FEXResponse_DST_pais",
    row: "DST_pais",
    fields: [
      ["DST_Codigo", "string"],
      ["DST_Ds", "string"],
    ],
  },
  DST_CUIT: {
    response: "FEXResponse_DST_cuit",
    row: "DST_cuit",
    fields: [
      ["DST_CUIT", "long"],
      ["DST_Ds", "string"],
    ],
  },
  MON: { response: "FEXResponse_Mon", row: "Mon", fields: vigencia("Mon", "string") },
  MON_CON_COTIZACION: {
    response: "FEXResponse_Mon_CON_COTIZACION",
    row: "Mon_CON_Cotizacion",
    fields: [
      ["Mon_Id", "string"],
      ["Mon_Ds", "string"],
      ["Mon_ctz", "string"],
      ["Fecha_ctz", "string"],
    ],
    extra: [["Fecha_CTZ", "string"]],
  },
  Ctz: {
    response: "FEXResponse_Ctz",
    row: "Ctz",
    fields: [
      ["Mon_ctz", "decimal"],
      ["Mon_fecha", "string"],
    ],
    // FchCotiz came after the 2021 WSDL; optional, as the service has it
    extra: [
      ["Mon_id", "string"],
      ["FchCotiz", "string"],
    ],
    single: true,
  },
  PtoVenta: {
    response: "FEXResponse_PtoVenta",
    row: "PtoVenta",
    fields: [
      ["Pve_Nro", "int"],
      ["Pve_Bloqueado", "string"],
      ["Pve_FchBaja", "string"],
    ],
  },
  Opcionales: { response: "FEXResponse_Opc", row: "Opc", fields: vigencia("Opc", "string") },
  Actividades: {
    response: "FEXResponse_Act",
    row: "Act",
    fields: [
      ["Id", "long"],
      ["Orden", "int"],
      ["Desc", "string"],
    ],
  },
};

const paramTypes: Record<string, readonly Field[]> = {};
const paramOperations: Record<string, { input: readonly Field[]; result: string }> = {};
for (const [name, spec] of Object.entries(PARAMS)) {
  const rowType = `ClsFEXResponse_${spec.row}`;
  Object.assign(
    paramTypes,
    spec.single === true ? { [rowType]: spec.fields } : withArray(rowType, spec.fields),
  );
  paramTypes[spec.response] = [
    ["FEXResultGet", spec.single === true ? rowType : `ArrayOf${rowType}`],
    ...ERR_EVT,
  ];
  paramOperations[`FEXGetPARAM_${name}`] = {
    input: [auth, ...(spec.extra ?? [])],
    result: spec.response,
  };
}

/** The project's WSFEXv1 contract: the subset of operations the simulator implements. */
export const WSFEX_WSDL: AsmxWsdlSpec = {
  ns: WSFEX_NS,
  documentation: "pasarela authority simulator: WSFEXv1 (subset)",
  types: {
    ClsFEXAuthRequest: AUTH_FIELDS,
    ClsFEX_LastCMP: [...AUTH_FIELDS, ["Pto_venta", "int"], ["Cbte_Tipo", "short"]],
    ClsFEXErr: [
      ["ErrCode", "int"],
      ["ErrMsg", "string"],
    ],
    ClsFEXEvents: [
      ["EventCode", "int"],
      ["EventMsg", "string"],
    ],
    ClsFEXRequest: [
      ["Id", "long"],
      ["Fecha_cbte", "string"],
      ["Cbte_Tipo", "short"],
      ["Punto_vta", "int"],
      ["Cbte_nro", "long"],
      ...CMP_HEAD,
      // CanMisMonExt and Actividades came with later versions of the request, where they sit
      ["CanMisMonExt", "string"],
      ...CMP_TAIL,
      ["Opcionales", "ArrayOfOpcional"],
      ["Fecha_pago", "string"],
      ["Actividades", "ArrayOfActividad"],
    ],
    ...withArray("Permiso", [
      ["Id_permiso", "string"],
      ["Dst_merc", "int"],
    ]),
    ...withArray("Cmp_asoc", [
      ["Cbte_tipo", "short"],
      ["Cbte_punto_vta", "int"],
      ["Cbte_nro", "long"],
      ["Cbte_cuit", "long"],
    ]),
    ...withArray("Item", [
      ["Pro_codigo", "string"],
      ["Pro_ds", "string"],
      ["Pro_qty", "decimal"],
      ["Pro_umed", "int"],
      ["Pro_precio_uni", "decimal"],
      ["Pro_bonificacion", "decimal"],
      ["Pro_total_item", "decimal"],
    ]),
    ...withArray("Opcional", [
      ["Id", "string"],
      ["Valor", "string"],
    ]),
    ...withArray("Actividad", [["Id", "long"]]),
    FEXResponseAuthorize: [["FEXResultAuth", "ClsFEXOutAuthorize"], ...ERR_EVT],
    ClsFEXOutAuthorize: [
      ["Id", "long"],
      ["Cuit", "long"],
      ["Cbte_tipo", "short"],
      ["Punto_vta", "int"],
      ["Cbte_nro", "long"],
      ["Cae", "string"],
      ["Fch_venc_Cae", "string"],
      ["Fch_cbte", "string"],
      ["Resultado", "string"],
      ["Reproceso", "string"],
      ["Motivos_Obs", "string"],
    ],
    ClsFEXGetCMP: [
      ["Cbte_tipo", "short"],
      ["Punto_vta", "int"],
      ["Cbte_nro", "long"],
    ],
    FEXGetCMPResponse: [["FEXResultGet", "ClsFEXGetCMPR"], ...ERR_EVT],
    ClsFEXGetCMPR: [
      ["Id", "long"],
      ["Fecha_cbte", "string"],
      ["Cbte_tipo", "short"],
      ["Punto_vta", "int"],
      ["Cbte_nro", "long"],
      ...CMP_HEAD,
      ...CMP_TAIL,
      ["Fecha_cbte_cae", "string"],
      ["Fch_venc_Cae", "string"],
      ["Cae", "string"],
      ["Resultado", "string"],
      ["Motivos_Obs", "string"],
      ["Opcionales", "ArrayOfOpcional"],
      ["Fecha_pago", "string"],
    ],
    FEXResponseLast_CMP: [["FEXResult_LastCMP", "ClsFEX_LastCMP_Response"], ...ERR_EVT],
    ClsFEX_LastCMP_Response: [
      ["Cbte_nro", "long"],
      ["Cbte_fecha", "string"],
    ],
    FEXResponse_LastID: [["FEXResultGet", "ClsFEXResponse_LastID"], ...ERR_EVT],
    ClsFEXResponse_LastID: [["Id", "long"]],
    FEXResponse_CheckPermiso: [["FEXResultGet", "ClsFEXResponse_CheckPermiso"], ...ERR_EVT],
    ClsFEXResponse_CheckPermiso: [["Status", "string"]],
    ...paramTypes,
    DummyResponse: [
      ["AppServer", "string"],
      ["DbServer", "string"],
      ["AuthServer", "string"],
    ],
  },
  operations: {
    FEXAuthorize: { input: [auth, ["Cmp", "ClsFEXRequest"]], result: "FEXResponseAuthorize" },
    FEXGetCMP: { input: [auth, ["Cmp", "ClsFEXGetCMP"]], result: "FEXGetCMPResponse" },
    FEXGetLast_CMP: { input: [["Auth", "ClsFEX_LastCMP"]], result: "FEXResponseLast_CMP" },
    FEXGetLast_ID: { input: [auth], result: "FEXResponse_LastID" },
    FEXCheck_Permiso: {
      input: [auth, ["ID_Permiso", "string"], ["Dst_merc", "int"]],
      result: "FEXResponse_CheckPermiso",
    },
    ...paramOperations,
    FEXDummy: { input: [], result: "DummyResponse" },
  },
};
