import { acceptedCbteTipoSchema } from "../common/cbte-tipo.js";

/** Export voucher types WSFEXv1 accepts (any other is the authority's error 1530). */
export const WSFEX_CBTE_TIPOS = [19, 20, 21] as const;

/** a type WSFEXv1 takes; any other is the 400 listing WSFEX_CBTE_TIPOS. */
export const cbteTipoSchema = acceptedCbteTipoSchema(WSFEX_CBTE_TIPOS);
