import type { wsfe } from "@pasarela/contracts";
import { autorizacionFields, estadoApi, isHeld } from "./autorizacion.js";
import { emitidoOfExportacion, isExportacion } from "./exportacion/index.js";
import { buildQrUrl, type PreparedVoucher } from "./issuance/index.js";

/** What a stored voucher carries for it to be read back; the comprobantes repository's rows do. */
export interface StoredVoucher {
  readonly series: Pick<wsfe.Emitido, "environment" | "cuit" | "ptoVta" | "cbteTipo">;
  readonly cbteNro: number;
  /** anything but "authorized" and "caea_rechazado" is read as rejected */
  readonly state: string;
  readonly cbteFch: string;
  readonly docTipo: number;
  readonly docNro: string;
  readonly moneda: { readonly id: string; readonly cotizacion: string };
  readonly totales: Readonly<wsfe.Emitido["totales"]>;
  /** the request as resolved when it was sent */
  readonly request: unknown;
  /** what was sent to the authority: an export voucher's ClsFEXRequest carries its request id */
  readonly sent?: unknown;
  readonly cae: string | null;
  readonly caeVencimiento: string | null;
  /** absent: a CAE voucher */
  readonly tipoAutorizacion?: "CAE" | "CAEA";
  /** a CAEA voucher's informing */
  readonly caea?: { readonly estado: string; readonly informadoAt: Date | null };
  /** the authority's errors and observations, read for a CAEA voucher refused at informing */
  readonly errores?: readonly { readonly code: number; readonly msg: string }[];
  readonly observaciones?: readonly { readonly code: number; readonly msg: string }[];
}

/** The voucher's state for `wsfe.emitido.get`: a final verdict, or a CAEA voucher's informing. */
function emitidoState(stored: StoredVoucher): wsfe.Emitido["state"] {
  const estado = estadoApi({
    state: stored.state,
    tipoAutorizacion: stored.tipoAutorizacion ?? "CAE",
    cae: stored.cae,
    caeVencimiento: stored.caeVencimiento,
    caeaEstado: stored.caea?.estado,
  });
  return estado === "pending" ? "rejected" : estado;
}

/**
 * What a voucher answers about its authorization: the fields of its kind, and the
 * authority's reasons when a CAEA voucher was refused at informing.
 */
function autorizacionOf(stored: StoredVoucher) {
  const state = emitidoState(stored);
  return {
    state,
    ...autorizacionFields({
      state: stored.state,
      tipoAutorizacion: stored.tipoAutorizacion ?? "CAE",
      cae: stored.cae,
      caeVencimiento: stored.caeVencimiento,
      caeaEstado: stored.caea?.estado,
      caeaInformadoAt: stored.caea?.informadoAt,
    }),
    ...(state === "caea_rechazado"
      ? {
          rechazo: [...(stored.errores ?? []), ...(stored.observaciones ?? [])].map(
            ({ code, msg }) => ({ code, msg }),
          ),
        }
      : {}),
  };
}

/**
 * The stored voucher as `wsfe.emitido.get` answers it: the request as resolved when it was
 * sent (receiver, items, VAT, tributes, dates) with the totals, the rate and the verdict that
 * were stored beside it. Only authorized and rejected vouchers are read.
 */
export function emitidoOf(stored: StoredVoucher): wsfe.Emitido {
  if (isExportacion(stored.series.cbteTipo)) return emitidoOfExportacion(stored);
  const voucher = stored.request as PreparedVoucher;
  const { series } = stored;
  const { state, ...autorizacion } = autorizacionOf(stored);
  return {
    state,
    environment: series.environment,
    cuit: series.cuit,
    ptoVta: series.ptoVta,
    cbteTipo: series.cbteTipo,
    cbteNro: stored.cbteNro,
    concepto: voucher.concepto,
    cbteFch: stored.cbteFch,
    ...(voucher.fchServDesde !== undefined ? { fchServDesde: voucher.fchServDesde } : {}),
    ...(voucher.fchServHasta !== undefined ? { fchServHasta: voucher.fchServHasta } : {}),
    ...(voucher.fchVtoPago !== undefined ? { fchVtoPago: voucher.fchVtoPago } : {}),
    receptor: {
      docTipo: stored.docTipo,
      docNro: stored.docNro,
      condicionIvaReceptorId: voucher.receptor.condicionIvaReceptorId,
      ...(voucher.receptor.razonSocial !== undefined
        ? { razonSocial: voucher.receptor.razonSocial }
        : {}),
      ...(voucher.receptor.domicilio !== undefined
        ? { domicilio: voucher.receptor.domicilio }
        : {}),
    },
    items: voucher.items.map((item) => ({
      ...(item.codigo !== undefined ? { codigo: item.codigo } : {}),
      descripcion: item.descripcion,
      cantidad: item.cantidad,
      precioUnitario: item.precioUnitario,
      alicuotaIva: item.alicuotaIva,
      bonificacion: item.bonificacion,
      ...(item.unidadMedida !== undefined ? { unidadMedida: item.unidadMedida } : {}),
      importe: item.importe,
    })),
    iva: voucher.iva.map(({ id, alicuota, baseImp, importe }) => ({
      id,
      alicuota,
      baseImp,
      importe,
    })),
    tributos: voucher.tributos.map((t) => ({
      id: t.id,
      ...(t.descripcion !== undefined ? { descripcion: t.descripcion } : {}),
      baseImponible: t.baseImponible,
      alicuota: t.alicuota,
      importe: t.importe,
    })),
    totales: { ...stored.totales },
    moneda: { id: stored.moneda.id, cotizacion: stored.moneda.cotizacion },
    comprobantesAsociados: voucher.comprobantesAsociados.map((a) => ({ ...a })),
    opcionales: voucher.opcionales.map(({ id, valor }) => ({ id, valor })),
    cae: stored.cae,
    caeVencimiento: stored.caeVencimiento,
    ...autorizacion,
    qr:
      isHeld(state) && stored.cae
        ? buildQrUrl({
            cbteFch: stored.cbteFch,
            cuit: series.cuit,
            ptoVta: series.ptoVta,
            cbteTipo: series.cbteTipo,
            cbteNro: stored.cbteNro,
            importe: stored.totales.impTotal,
            moneda: stored.moneda.id,
            cotizacion: stored.moneda.cotizacion,
            docTipo: stored.docTipo,
            docNro: stored.docNro,
            tipoCodAut: stored.tipoAutorizacion === "CAEA" ? "A" : "E",
            codAut: stored.cae,
          })
        : null,
    emisor: voucher.emisor ?? null,
  };
}
