import { FEX_NS, arToday, asmx, authXml, resultOf } from "./helpers.js";
import type { Ta } from "./helpers.js";

/** ClsFEXRequest fields by name; undefined in an override drops the field. */
export interface FexFields {
  [k: string]: string | undefined;
}

/** ClsFEXRequest's WSDL order. */
const CMP_ORDER = [
  "Id",
  "Fecha_cbte",
  "Cbte_Tipo",
  "Punto_vta",
  "Cbte_nro",
  "Tipo_expo",
  "Permiso_existente",
  "Permisos",
  "Dst_cmp",
  "Cliente",
  "Cuit_pais_cliente",
  "Domicilio_cliente",
  "Id_impositivo",
  "Moneda_Id",
  "Moneda_ctz",
  "CanMisMonExt",
  "Obs_comerciales",
  "Imp_total",
  "Obs",
  "Cmps_asoc",
  "Forma_pago",
  "Incoterms",
  "Incoterms_Ds",
  "Idioma_cbte",
  "Items",
  "Opcionales",
  "Fecha_pago",
  "Actividades",
];

export const OK_TAIL =
  "<FEXErr><ErrCode>0</ErrCode><ErrMsg>OK</ErrMsg></FEXErr><FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>";

/** A rejection as the service writes it: one FEXErr, the events block, no result. */
export const fexErrXml = (code: number, msg: string): string =>
  `<FEXErr><ErrCode>${code}</ErrCode><ErrMsg>${msg}</ErrMsg></FEXErr>` +
  "<FEXEvents><EventCode>0</EventCode><EventMsg>Ok</EventMsg></FEXEvents>";

export function item(
  qty: string,
  umed: string,
  precio: string,
  total: string,
  extra: { ds?: string; bonif?: string } = {},
): string {
  return (
    `<Item><Pro_codigo>PRO1</Pro_codigo><Pro_ds>${extra.ds ?? "Producto"}</Pro_ds><Pro_qty>${qty}</Pro_qty>` +
    `<Pro_umed>${umed}</Pro_umed><Pro_precio_uni>${precio}</Pro_precio_uni>` +
    `<Pro_bonificacion>${extra.bonif ?? "0"}</Pro_bonificacion><Pro_total_item>${total}</Pro_total_item></Item>`
  );
}

export const permiso = (id: string, dst: string): string =>
  `<Permiso><Id_permiso>${id}</Id_permiso><Dst_merc>${dst}</Dst_merc></Permiso>`;

export const cmpAsoc = (tipo: string, pto: string, nro: string, cuit?: string): string =>
  `<Cmp_asoc><Cbte_tipo>${tipo}</Cbte_tipo><Cbte_punto_vta>${pto}</Cbte_punto_vta><Cbte_nro>${nro}</Cbte_nro>` +
  `${cuit === undefined ? "" : `<Cbte_cuit>${cuit}</Cbte_cuit>`}</Cmp_asoc>`;

export const opcional = (id: string, valor: string): string =>
  `<Opcional><Id>${id}</Id><Valor>${valor}</Valor></Opcional>`;

export const actividad = (id: string): string => `<Actividad><Id>${id}</Id></Actividad>`;

/**
 * A valid Factura E of goods (19, Tipo_expo 1, no permit) on point of sale 7, with today's
 * date; override or drop (undefined) fields.
 */
export function fexCmp(id: number, nro: number, over: FexFields = {}): string {
  const base: FexFields = {
    Id: String(id),
    Fecha_cbte: arToday(),
    Cbte_Tipo: "19",
    Punto_vta: "7",
    Cbte_nro: String(nro),
    Tipo_expo: "1",
    Permiso_existente: "N",
    Dst_cmp: "203",
    Cliente: "Joao Da Silva",
    Cuit_pais_cliente: "50000000016",
    Domicilio_cliente: "Rua 76 km 34.5 Alagoas",
    Id_impositivo: "PJ54482221-l",
    Moneda_Id: "DOL",
    Moneda_ctz: "101.202",
    Imp_total: "100.00",
    Forma_pago: "Contado",
    Incoterms: "FOB",
    Idioma_cbte: "1",
    Items: item("2", "7", "50", "100"),
    ...over,
  };
  return `<Cmp>${CMP_ORDER.filter((k) => base[k] !== undefined)
    .map((k) => `<${k}>${base[k] ?? ""}</${k}>`)
    .join("")}</Cmp>`;
}

export interface FexCalls {
  call(op: string, inner?: string): Promise<string>;
  authorize(id: number, nro: number, over?: FexFields): Promise<string>;
  lastCmp(pto: number, tipo: number): Promise<string>;
  lastId(): Promise<string>;
}

/** WSFEX calls for one issuer and its TA, each answering its Result element's inner XML. */
export function fexCalls(url: string, ta: Ta, cuit: string): FexCalls {
  const call = async (op: string, inner = ""): Promise<string> => {
    const res = await asmx(url, FEX_NS, op, `${authXml(ta, cuit)}${inner}`);
    return resultOf(res.text, op);
  };
  return {
    call,
    authorize: (id, nro, over = {}) => call("FEXAuthorize", fexCmp(id, nro, over)),
    lastCmp: async (pto, tipo) => {
      const res = await asmx(
        url,
        FEX_NS,
        "FEXGetLast_CMP",
        authXml(ta, cuit, `<Pto_venta>${pto}</Pto_venta><Cbte_Tipo>${tipo}</Cbte_Tipo>`),
      );
      return resultOf(res.text, "FEXGetLast_CMP");
    },
    lastId: () => call("FEXGetLast_ID"),
  };
}

/** The CAE of an FEXResultAuth, if any. */
export const caeOf = (result: string): string | undefined =>
  /<Cae>(\d{14})<\/Cae>/.exec(result)?.[1];
