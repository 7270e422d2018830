import { acceptedCbteTipoSchema } from "../common/cbte-tipo.js";
import { WSFEX_CBTE_TIPOS } from "../wsfex/fields.js";
import { WSFE_CBTE_TIPOS } from "./fields.js";

/** Every type the gateway issues: domestic (WSFEv1) and export (WSFEXv1). */
export const ISSUED_CBTE_TIPOS = [...WSFE_CBTE_TIPOS, ...WSFEX_CBTE_TIPOS] as const;

/** Whether a type is an export voucher's (issued through WSFEXv1). */
export const isExportCbteTipo = (cbteTipo: number): boolean =>
  (WSFEX_CBTE_TIPOS as readonly number[]).includes(cbteTipo);

/**
 * A type of a voucher the gateway issued, domestic or export: what its stored copy, PDF,
 * e-mail and list are asked for by.
 */
export const issuedCbteTipoSchema = acceptedCbteTipoSchema(ISSUED_CBTE_TIPOS);
