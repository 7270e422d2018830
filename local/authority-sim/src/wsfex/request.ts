import type { FieldReader } from "../soap/asmx.js";
import type { XmlElement } from "../soap/xml.js";

export interface FexItem {
  codigo: string;
  ds: string;
  qty: number | undefined;
  umed: number | undefined;
  precio: number | undefined;
  bonif: number | undefined;
  total: number | undefined;
}

export interface FexPermiso {
  id: string;
  dst: number | undefined;
}

export interface FexCmpAsoc {
  tipo: number | undefined;
  pto: number | undefined;
  nro: number | undefined;
  /** 0 when left out (the element came after the first WSDL) */
  cuit: number;
}

export interface FexOpcional {
  id: string;
  valor: string;
}

/**
 * `ClsFEXRequest` as read: numbers the request left out are undefined and strings are trimmed
 * ("" when absent), so the rules can tell "not informed" from a zero. Lists are empty when
 * their wrapper is absent or empty: ASMX reads `<Permisos />` as an empty array, the same as
 * none. `actividades` is undefined without the wrapper (it came with a later WSDL).
 */
export interface FexRequest {
  id: number | undefined;
  fechaCbte: string;
  cbteTipo: number | undefined;
  puntoVta: number | undefined;
  cbteNro: number | undefined;
  tipoExpo: number | undefined;
  permisoExistente: string;
  permisos: FexPermiso[];
  dstCmp: number | undefined;
  cliente: string;
  cuitPaisCliente: number | undefined;
  domicilioCliente: string;
  idImpositivo: string;
  monedaId: string;
  monedaCtz: number | undefined;
  canMisMonExt: string;
  obsComerciales: string;
  impTotal: number | undefined;
  obs: string;
  cmpsAsoc: FexCmpAsoc[];
  formaPago: string;
  incoterms: string;
  incotermsDs: string;
  idiomaCbte: number | undefined;
  items: FexItem[];
  opcionales: FexOpcional[];
  fechaPago: string;
  actividades: number[] | undefined;
}

/** Reads FEXAuthorize's `Cmp`; an unreadable number throws (the SOAP layer's 500). */
export function readFexRequest(r: FieldReader, cmp: XmlElement | undefined): FexRequest {
  const s = (parent: XmlElement | undefined, name: string): string =>
    r.str(parent, name)?.trim() ?? "";
  const list = (wrapper: string, name: string): XmlElement[] => r.all(r.el(cmp, wrapper), name);
  const actividades = r.el(cmp, "Actividades");
  return {
    id: r.int(cmp, "Id"),
    fechaCbte: s(cmp, "Fecha_cbte"),
    cbteTipo: r.int(cmp, "Cbte_Tipo"),
    puntoVta: r.int(cmp, "Punto_vta"),
    cbteNro: r.int(cmp, "Cbte_nro"),
    tipoExpo: r.int(cmp, "Tipo_expo"),
    permisoExistente: s(cmp, "Permiso_existente"),
    permisos: list("Permisos", "Permiso").map((p) => ({
      id: s(p, "Id_permiso"),
      dst: r.int(p, "Dst_merc"),
    })),
    dstCmp: r.int(cmp, "Dst_cmp"),
    cliente: s(cmp, "Cliente"),
    cuitPaisCliente: r.int(cmp, "Cuit_pais_cliente"),
    domicilioCliente: s(cmp, "Domicilio_cliente"),
    idImpositivo: s(cmp, "Id_impositivo"),
    monedaId: s(cmp, "Moneda_Id"),
    monedaCtz: r.num(cmp, "Moneda_ctz"),
    canMisMonExt: s(cmp, "CanMisMonExt"),
    obsComerciales: s(cmp, "Obs_comerciales"),
    impTotal: r.num(cmp, "Imp_total"),
    obs: s(cmp, "Obs"),
    cmpsAsoc: list("Cmps_asoc", "Cmp_asoc").map((c) => ({
      tipo: r.int(c, "Cbte_tipo"),
      pto: r.int(c, "Cbte_punto_vta"),
      nro: r.int(c, "Cbte_nro"),
      cuit: r.int(c, "Cbte_cuit") ?? 0,
    })),
    formaPago: s(cmp, "Forma_pago"),
    incoterms: s(cmp, "Incoterms"),
    incotermsDs: s(cmp, "Incoterms_Ds"),
    idiomaCbte: r.int(cmp, "Idioma_cbte"),
    items: list("Items", "Item").map((it) => ({
      codigo: s(it, "Pro_codigo"),
      ds: s(it, "Pro_ds"),
      qty: r.num(it, "Pro_qty"),
      umed: r.int(it, "Pro_umed"),
      precio: r.num(it, "Pro_precio_uni"),
      bonif: r.num(it, "Pro_bonificacion"),
      total: r.num(it, "Pro_total_item"),
    })),
    opcionales: list("Opcionales", "Opcional").map((o) => ({
      id: s(o, "Id"),
      valor: s(o, "Valor"),
    })),
    fechaPago: s(cmp, "Fecha_pago"),
    actividades:
      actividades === undefined
        ? undefined
        : r.all(actividades, "Actividad").map((a) => r.int(a, "Id") ?? 0),
  };
}
