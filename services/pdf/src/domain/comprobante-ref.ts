import type { pdf } from "@pasarela/contracts";

/** A voucher named by its five fields: environment, representada, ptoVta, cbteTipo, cbteNro. */
export type ComprobanteRef = pdf.ComprobanteKey;

const pad = (value: number, width: number) => String(value).padStart(width, "0");

/** `<cuit>_<tipo>_<ptoVta>-<nro>.pdf`, numbers padded as the voucher prints them. */
export function pdfFilename(ref: ComprobanteRef): string {
  return `${ref.representada}_${pad(ref.cbteTipo, 3)}_${pad(ref.ptoVta, 5)}-${pad(ref.cbteNro, 8)}.pdf`;
}
