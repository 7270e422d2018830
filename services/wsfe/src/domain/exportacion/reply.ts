import type { wsfe } from "@pasarela/contracts";
import { buildQrUrl } from "../issuance/index.js";
import { exportReceptorDoc } from "./cmp.js";
import type { PreparedExportacion } from "./prepare.js";

/** What the authority granted an export voucher, with where it was issued. */
export interface ExportacionAuthorization {
  /** the issuer: the representada's CUIT */
  readonly cuit: string;
  readonly ptoVta: number;
  readonly cbteNro: number;
  /** the rate sent as Moneda_ctz */
  readonly cotizacion: string;
  readonly cae: string;
  /** Fch_venc_Cae, yyyymmdd */
  readonly caeVencimiento: string;
  /** observations that came with the `A`: returned, never turned into errors */
  readonly observaciones: readonly wsfe.CodigoMensaje[];
}

/**
 * The RG 4892 QR of an export voucher. The receiver's keys name the country's CUIT (docTipo
 * 80), the one document the authority holds for the customer; a customer known only by its
 * foreign tax id has no document type, and its keys are left out as the RG allows.
 */
export function exportacionQr(args: {
  readonly cbteFch: string;
  readonly cuit: string;
  readonly ptoVta: number;
  readonly cbteTipo: number;
  readonly cbteNro: number;
  readonly impTotal: string;
  readonly moneda: string;
  readonly cotizacion: string;
  readonly cuitPais: string | undefined;
  readonly cae: string;
}): string {
  return buildQrUrl({
    cbteFch: args.cbteFch,
    cuit: args.cuit,
    ptoVta: args.ptoVta,
    cbteTipo: args.cbteTipo,
    cbteNro: args.cbteNro,
    importe: args.impTotal,
    moneda: args.moneda,
    cotizacion: args.cotizacion,
    ...exportReceptorDoc(args.cuitPais),
    tipoCodAut: "E",
    codAut: args.cae,
  });
}

/** The reply of an authorized export voucher, with its QR. */
export function exportacionReply(
  voucher: PreparedExportacion,
  granted: ExportacionAuthorization,
): wsfe.ExportacionIssueReply {
  return {
    resultado: "A",
    cae: granted.cae,
    caeVencimiento: granted.caeVencimiento,
    cbteNro: granted.cbteNro,
    ptoVta: granted.ptoVta,
    cbteTipo: voucher.cbteTipo,
    cbteFch: voucher.cbteFch,
    impTotal: voucher.impTotal,
    moneda: voucher.moneda.id,
    cotizacion: granted.cotizacion,
    observaciones: granted.observaciones.map(({ code, msg }) => ({ code, msg })),
    qr: exportacionQr({
      cbteFch: voucher.cbteFch,
      cuit: granted.cuit,
      ptoVta: granted.ptoVta,
      cbteTipo: voucher.cbteTipo,
      cbteNro: granted.cbteNro,
      impTotal: voucher.impTotal,
      moneda: voucher.moneda.id,
      cotizacion: granted.cotizacion,
      cuitPais: voucher.cliente.cuitPais,
      cae: granted.cae,
    }),
  };
}
