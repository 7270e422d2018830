/**
 * Issuance, pure: what the gateway decides about a voucher before and after the
 * authority, with no NATS, SOAP or database. The handler resolves references through the
 * catalog, numbers the voucher and calls the authority; everything it sends and answers is
 * computed here.
 */
export {
  authorizedReply,
  prepareIssuance,
  referencedIds,
  type Authorization,
  type PreparedVoucher,
  type ResolvedReferences,
} from "./prepare.js";
export { FE_ARRAY_ITEMS, feCaeDetRequest, type FECAEDetRequest } from "./detail.js";
export { buildQrUrl, type QrData } from "./qr.js";
export { argentinaToday } from "./dates.js";
export type { MonedaResuelta } from "./moneda.js";
export type { Opcional } from "./opcionales.js";
export type { Receptor } from "./receptor.js";
export type { AlicIva, PricedItem, Totals, Tributo } from "./totals.js";
export { isFce, isFceInvoice, isNote, voucherClass, type VoucherClass } from "./voucher-types.js";
