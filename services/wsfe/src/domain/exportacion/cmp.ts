import { wsfe, wsfex } from "@pasarela/contracts";
import type { VoucherSummary } from "../voucher-summary.js";
import type { PreparedExportacion } from "./prepare.js";

const EXPORT_TYPES: ReadonlySet<number> = new Set(wsfex.WSFEX_CBTE_TIPOS);
/** Whether a voucher type is an export one (WSFEXv1: 19, 20, 21). */
export const isExportacion = (cbteTipo: number): boolean => EXPORT_TYPES.has(cbteTipo);

/** `Id` is the authority's N15: at most 15 digits. */
const MAX_REQUEST_ID = 999_999_999_999_999;

/** What numbering adds to a prepared voucher before it is sent. */
export interface ExportacionNumbering {
  /** the request id (FEXAuthorize's idempotency key) */
  readonly id: number;
  readonly cbteNro: number;
  readonly ptoVta: number;
  /** the rate sent: the voucher's own when it has one, the authority's of the day otherwise */
  readonly cotizacion: string;
}

/**
 * The `ClsFEXRequest` for `voucher` numbered `cbteNro` under request `id`, keys in WSDL order.
 * Optional elements are absent keys; `Permiso_existente` is empty unless an invoice of goods
 * said S or N. `CanMisMonExt` is sent only when the caller said it (and never with PES).
 */
export function fexCmp(
  voucher: PreparedExportacion,
  numbering: ExportacionNumbering,
): wsfex.FexCmp {
  const { cliente, moneda } = voucher;
  if (!Number.isSafeInteger(numbering.id) || numbering.id < 0 || numbering.id > MAX_REQUEST_ID) {
    throw new Error(`Id must be an integer of at most 15 digits, got ${numbering.id}`);
  }
  const cotizacion = wsfe.canonicalDecimal(numbering.cotizacion);
  if (cotizacion === undefined || cotizacion === "0") {
    throw new Error(`Moneda_ctz must be a positive decimal, got ${numbering.cotizacion}`);
  }
  if (moneda.cotizacion !== undefined && moneda.cotizacion !== cotizacion) {
    throw new Error(`Moneda_ctz ${cotizacion} differs from the voucher's ${moneda.cotizacion}`);
  }
  return {
    Id: numbering.id,
    Fecha_cbte: voucher.cbteFch,
    Cbte_Tipo: voucher.cbteTipo,
    Punto_vta: numbering.ptoVta,
    Cbte_nro: numbering.cbteNro,
    Tipo_expo: voucher.tipoExpo,
    Permiso_existente: voucher.permisoExistente ?? "",
    Permisos: voucher.permisos.map((p) => ({ Id_permiso: p.idPermiso, Dst_merc: p.dstMerc })),
    Dst_cmp: voucher.dstCmp,
    Cliente: cliente.razonSocial,
    ...(cliente.cuitPais !== undefined ? { Cuit_pais_cliente: cliente.cuitPais } : {}),
    Domicilio_cliente: cliente.domicilio,
    ...(cliente.idImpositivo !== undefined ? { Id_impositivo: cliente.idImpositivo } : {}),
    Moneda_Id: moneda.id,
    Moneda_ctz: cotizacion,
    ...(moneda.canMisMonExt !== undefined ? { CanMisMonExt: moneda.canMisMonExt } : {}),
    ...(voucher.obsComerciales !== undefined ? { Obs_comerciales: voucher.obsComerciales } : {}),
    Imp_total: voucher.impTotal,
    ...(voucher.obs !== undefined ? { Obs: voucher.obs } : {}),
    Cmps_asoc: voucher.comprobantesAsociados.map((a) => ({
      Cbte_tipo: a.cbteTipo,
      Cbte_punto_vta: a.ptoVta,
      Cbte_nro: a.cbteNro,
      ...(a.cuit !== undefined ? { Cbte_cuit: a.cuit } : {}),
    })),
    ...(voucher.formaPago !== undefined ? { Forma_pago: voucher.formaPago } : {}),
    ...(voucher.incoterms !== undefined ? { Incoterms: voucher.incoterms } : {}),
    ...(voucher.incotermsDs !== undefined ? { Incoterms_Ds: voucher.incotermsDs } : {}),
    Idioma_cbte: voucher.idioma,
    Items: voucher.items.map((item) => ({
      ...(item.codigo !== undefined ? { Pro_codigo: item.codigo } : {}),
      Pro_ds: item.descripcion,
      Pro_qty: item.cantidad,
      Pro_umed: item.unidadMedida,
      Pro_precio_uni: item.precioUnitario,
      Pro_bonificacion: item.bonificacion,
      Pro_total_item: item.importe,
    })),
    Opcionales: voucher.opcionales.map((o) => ({ Id: o.id, Valor: o.valor })),
    ...(voucher.fechaPago !== undefined ? { Fecha_pago: voucher.fechaPago } : {}),
    Actividades: voucher.actividades.map((id) => ({ Id: id })),
  };
}

/**
 * The receiver as the voucher table and the QR name it: the country's CUIT as a CUIT (80), or
 * no document (99, "0") when the customer is identified only by its foreign tax id, which has
 * no document type of the authority.
 */
export function exportReceptorDoc(cuitPais: string | undefined): {
  docTipo: number;
  docNro: string;
} {
  return cuitPais !== undefined ? { docTipo: 80, docNro: cuitPais } : { docTipo: 99, docNro: "0" };
}

/** `concepto` of an export voucher, in the domestic sense: goods 1, anything else services 2. */
export const conceptoOfTipoExpo = (tipoExpo: number): 1 | 2 => (tipoExpo === 1 ? 1 : 2);

/** An export voucher's columns, from what was sent: it carries no VAT nor tributes. */
export function summaryOf(cmp: wsfex.FexCmp): VoucherSummary {
  return {
    concepto: conceptoOfTipoExpo(cmp.Tipo_expo),
    cbteFch: cmp.Fecha_cbte,
    ...exportReceptorDoc(cmp.Cuit_pais_cliente),
    monedaId: cmp.Moneda_Id,
    monedaCotizacion: cmp.Moneda_ctz,
    impTotal: cmp.Imp_total,
    impNeto: "0.00",
    impIVA: "0.00",
    impTrib: "0.00",
    impTotConc: "0.00",
    impOpEx: "0.00",
  };
}
