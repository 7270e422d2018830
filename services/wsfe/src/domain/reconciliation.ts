import Big from "big.js";
import type { AuthorityComprobante } from "./comprobante.js";
import type { FECAEDetRequest } from "./issuance/index.js";

const digits = (value: string | undefined) => value?.trim().replace(/^0+(?=\d)/, "");

const sameAmount = (sent: string, held: string) => {
  try {
    return new Big(sent).eq(new Big(held));
  } catch {
    return false;
  }
};

/**
 * Whether the voucher the authority holds under a number is the one the gateway sent there (a
 * call that timed out may have been authorized anyway): same authorization, date, receiver and
 * amounts. Anything the authority leaves out counts as different: a stranger's CAE is never
 * adopted on a guess.
 */
export function isSameVoucher(sent: FECAEDetRequest, held: AuthorityComprobante): boolean {
  return (
    held.resultado === "A" &&
    held.codAutorizacion !== "" &&
    held.cbteDesde === sent.CbteDesde &&
    held.cbteFch === sent.CbteFch &&
    held.docTipo === sent.DocTipo &&
    digits(held.docNro) === digits(sent.DocNro) &&
    sameAmount(sent.ImpTotal, held.impTotal) &&
    sameAmount(sent.ImpNeto, held.impNeto) &&
    sameAmount(sent.ImpIVA, held.impIVA)
  );
}
