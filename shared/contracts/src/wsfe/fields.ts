import { z } from "zod";
import { acceptedCbteTipoSchema } from "../common/cbte-tipo.js";

/**
 * Voucher types WSFEv1 issues and answers for (FEParamGetTiposCbte); anything else is a
 * 400 that lists them, before the authority is called.
 */
export const WSFE_CBTE_TIPOS = [
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15, 34, 35, 39, 40, 49, 51, 52, 53, 54, 60, 61, 63, 64,
  201, 202, 203, 206, 207, 208, 211, 212, 213,
] as const;

/** FCE MiPyME types (201–213): invoices and their notes. */
export const FCE_CBTE_TIPOS = [201, 202, 203, 206, 207, 208, 211, 212, 213] as const;
/** The FCE invoices proper, which need FchVtoPago, a CBU and a transfer option. */
export const FCE_FACTURA_TIPOS = [201, 206, 211] as const;
/** Debit and credit notes: they adjust another voucher and must name it. */
export const NOTA_TIPOS = [2, 3, 7, 8, 12, 13, 52, 53, 202, 203, 207, 208, 212, 213] as const;
/** Opcionales that belong to FCE only [10169], by what the `fce` block calls them. */
export const FCE_OPCIONALES = {
  cbu: "2101",
  alias: "2102",
  opcionTransferencia: "27",
  anulacion: "22",
} as const;

/** A point of sale as the authority numbers them (1–99998). */
export const ptoVtaSchema = z.number().int().min(1).max(99_998);
/** A type WSFEv1 takes; any other is the 400 listing WSFE_CBTE_TIPOS. */
export const cbteTipoSchema = acceptedCbteTipoSchema(WSFE_CBTE_TIPOS);
/** Voucher numbers are 1–99999999 at the authority. */
export const cbteNroSchema = z.number().int().min(1).max(99_999_999);

/** The parameter tables, by the path segment that names them. */
export const TABLAS = [
  "tipos-comprobante",
  "tipos-documento",
  "alicuotas-iva",
  "puntos-de-venta",
  "condicion-iva-receptor",
  "tipos-opcional",
  "cotizacion",
] as const;
export const tablaSchema = z.enum(TABLAS);
export type Tabla = z.infer<typeof tablaSchema>;
