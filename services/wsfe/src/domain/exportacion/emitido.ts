import type { wsfe, wsfex } from "@pasarela/contracts";
import type { StoredVoucher } from "../emitido.js";
import { conceptoOfTipoExpo } from "./cmp.js";
import type { PreparedExportacion } from "./prepare.js";
import { exportacionQr } from "./reply.js";

/** Condición frente al IVA of a customer abroad (Cliente del Exterior). */
const CLIENTE_DEL_EXTERIOR = 9;

/**
 * A stored export voucher as `wsfe.emitido.get` answers it: the request as resolved when it
 * was sent (`request`, a `PreparedExportacion`) and the `ClsFEXRequest` sent (`sent`, whose
 * `Id` the export block carries), with the columns and the verdict stored beside them. An
 * export voucher carries no VAT nor tributes; its unit codes read as text.
 */
export function emitidoOfExportacion(stored: StoredVoucher): wsfe.Emitido {
  const voucher = stored.request as PreparedExportacion;
  const sent = stored.sent as Partial<wsfex.FexCmp> | undefined;
  // every export voucher is stored with the request it was sent as, before it is sent
  if (typeof sent?.Id !== "number") throw new Error("an export voucher is stored with its Cmp");
  const { series } = stored;
  const { cliente } = voucher;
  const authorized = stored.state === "authorized";
  return {
    state: authorized ? "authorized" : "rejected",
    environment: series.environment,
    cuit: series.cuit,
    ptoVta: series.ptoVta,
    cbteTipo: series.cbteTipo,
    cbteNro: stored.cbteNro,
    concepto: conceptoOfTipoExpo(voucher.tipoExpo),
    cbteFch: stored.cbteFch,
    receptor: {
      docTipo: stored.docTipo,
      docNro: stored.docNro,
      condicionIvaReceptorId: CLIENTE_DEL_EXTERIOR,
      razonSocial: cliente.razonSocial,
      domicilio: cliente.domicilio,
    },
    items: voucher.items.map((item) => ({
      ...(item.codigo !== undefined ? { codigo: item.codigo } : {}),
      descripcion: item.descripcion,
      cantidad: item.cantidad,
      precioUnitario: item.precioUnitario,
      bonificacion: item.bonificacion,
      unidadMedida: String(item.unidadMedida),
      importe: item.importe,
    })),
    iva: [],
    tributos: [],
    totales: {
      impTotal: stored.totales.impTotal,
      impNeto: "0.00",
      impIVA: "0.00",
      impTrib: "0.00",
      impTotConc: "0.00",
      impOpEx: "0.00",
    },
    moneda: { id: stored.moneda.id, cotizacion: stored.moneda.cotizacion },
    comprobantesAsociados: voucher.comprobantesAsociados.map((a) => ({ ...a })),
    opcionales: voucher.opcionales.map(({ id, valor }) => ({ id, valor })),
    cae: stored.cae,
    caeVencimiento: stored.caeVencimiento,
    // WSFEXv1 has no contingency: an export voucher always has a CAE of its own
    tipoAutorizacion: "CAE",
    qr:
      authorized && stored.cae
        ? exportacionQr({
            cbteFch: stored.cbteFch,
            cuit: series.cuit,
            ptoVta: series.ptoVta,
            cbteTipo: series.cbteTipo,
            cbteNro: stored.cbteNro,
            impTotal: stored.totales.impTotal,
            moneda: stored.moneda.id,
            cotizacion: stored.moneda.cotizacion,
            cuitPais: cliente.cuitPais,
            cae: stored.cae,
          })
        : null,
    emisor: voucher.emisor ?? null,
    exportacion: {
      tipoExpo: voucher.tipoExpo,
      ...(voucher.permisoExistente !== undefined
        ? { permisoExistente: voucher.permisoExistente }
        : {}),
      permisos: voucher.permisos.map(({ idPermiso, dstMerc }) => ({ idPermiso, dstMerc })),
      dstCmp: voucher.dstCmp,
      cliente: {
        razonSocial: cliente.razonSocial,
        domicilio: cliente.domicilio,
        ...(cliente.cuitPais !== undefined ? { cuitPais: cliente.cuitPais } : {}),
        ...(cliente.idImpositivo !== undefined ? { idImpositivo: cliente.idImpositivo } : {}),
      },
      idioma: voucher.idioma,
      ...(voucher.incoterms !== undefined ? { incoterms: voucher.incoterms } : {}),
      ...(voucher.incotermsDs !== undefined ? { incotermsDs: voucher.incotermsDs } : {}),
      ...(voucher.formaPago !== undefined ? { formaPago: voucher.formaPago } : {}),
      ...(voucher.fechaPago !== undefined ? { fechaPago: voucher.fechaPago } : {}),
      ...(voucher.obsComerciales !== undefined ? { obsComerciales: voucher.obsComerciales } : {}),
      ...(voucher.obs !== undefined ? { obs: voucher.obs } : {}),
      ...(voucher.moneda.canMisMonExt !== undefined
        ? { canMisMonExt: voucher.moneda.canMisMonExt }
        : {}),
      actividades: [...voucher.actividades],
      id: sent.Id,
    },
  };
}
