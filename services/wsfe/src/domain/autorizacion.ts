import type { wsfe } from "@pasarela/contracts";

/**
 * How the read paths show a stored voucher's authorization. A voucher issued in contingency is
 * stored `authorized` from its issuance (the customer holds it), but the API says where its
 * informing stands: `caea_pendiente` until the authority accepted it, then `authorized`, and
 * `caea_rechazado` when the authority refused it.
 */

/** What a stored voucher carries about its authorization; the comprobantes' rows do. */
export interface StoredAutorizacion {
  /** the stored state (pending, unknown, authorized, rejected, caea_rechazado…) */
  readonly state: string;
  readonly tipoAutorizacion: "CAE" | "CAEA";
  /** the CAE, or the CAEA of a contingency voucher */
  readonly cae: string | null;
  /** the CAE's due date, or the CAEA's FchVigHasta */
  readonly caeVencimiento: string | null;
  /** a CAEA voucher's informing: pendiente, informado, rechazado; undefined for a CAE one */
  readonly caeaEstado?: string | null | undefined;
  readonly caeaInformadoAt?: Date | null | undefined;
}

/** The voucher's state as the API names it. */
export function estadoApi(v: StoredAutorizacion): wsfe.ComprobanteListItem["state"] {
  if (v.state === "caea_rechazado") return "caea_rechazado";
  if (v.state === "authorized") {
    if (v.tipoAutorizacion !== "CAEA") return "authorized";
    // a row whose informing was refused reads so even before its state follows
    if (v.caeaEstado === "rechazado") return "caea_rechazado";
    return v.caeaEstado === "informado" ? "authorized" : "caea_pendiente";
  }
  if (v.state === "rejected") return "rejected";
  return "pending";
}

/** Whether the voucher is one the customer holds: authorized, or issued under a CAEA not refused. */
export const isHeld = (estado: wsfe.ComprobanteListItem["state"]): boolean =>
  estado === "authorized" || estado === "caea_pendiente";

/**
 * The authorization fields every stored voucher answers: `tipoAutorizacion`, and for a CAEA
 * one its CAEA and FchVigHasta by name and, once accepted, when it was informed.
 */
export function autorizacionFields(v: StoredAutorizacion): {
  tipoAutorizacion: "CAE" | "CAEA";
  caea?: string;
  caeaVencimiento?: string;
  caeaInformadoAt?: string;
} {
  if (v.tipoAutorizacion !== "CAEA") return { tipoAutorizacion: "CAE" };
  return {
    tipoAutorizacion: "CAEA",
    ...(v.cae !== null ? { caea: v.cae } : {}),
    ...(v.caeVencimiento !== null ? { caeaVencimiento: v.caeVencimiento } : {}),
    ...(v.caeaEstado === "informado" && v.caeaInformadoAt
      ? { caeaInformadoAt: v.caeaInformadoAt.toISOString() }
      : {}),
  };
}
