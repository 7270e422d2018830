import type { wsfex } from "@pasarela/contracts";
import Big from "big.js";

/** What FEXGetCMP answers about the voucher held under a number, as far as it is compared. */
export interface HeldExportacion {
  readonly cae: string;
  readonly cbteNro: number;
  /** `Fecha_cbte`, yyyymmdd */
  readonly fechaCbte: string;
  readonly impTotal: string;
  readonly monedaId: string;
  readonly cuitPaisCliente?: string;
  readonly idImpositivo?: string;
  readonly resultado: string;
}

const digits = (value: string | undefined) => value?.trim().replace(/^0+(?=\d)/, "");

const sameAmount = (sent: string, held: string) => {
  try {
    return new Big(sent).eq(new Big(held));
  } catch {
    return false;
  }
};

/** The authority prints an absent number as 0 and an absent text as empty. */
const sameCuit = (sent: string | undefined, held: string | undefined) => {
  const heldDigits = digits(held);
  if (sent === undefined)
    return heldDigits === undefined || heldDigits === "" || heldDigits === "0";
  return heldDigits === digits(sent);
};
const sameText = (sent: string | undefined, held: string | undefined) =>
  (sent?.trim() ?? "") === (held?.trim() ?? "");

/**
 * Whether the export voucher the authority holds under a number is the one the gateway sent
 * there (a call that timed out may have been authorized anyway): same authorization, number,
 * date, amount, currency and customer. Anything the authority leaves out counts as different:
 * a stranger's CAE is never adopted on a guess.
 */
export function isSameExportacion(sent: wsfex.FexCmp, held: HeldExportacion): boolean {
  return (
    held.resultado === "A" &&
    held.cae.trim() !== "" &&
    held.cbteNro === sent.Cbte_nro &&
    held.fechaCbte === sent.Fecha_cbte &&
    sameAmount(sent.Imp_total, held.impTotal) &&
    held.monedaId.trim().toUpperCase() === sent.Moneda_Id &&
    sameCuit(sent.Cuit_pais_cliente, held.cuitPaisCliente) &&
    sameText(sent.Id_impositivo, held.idImpositivo)
  );
}
