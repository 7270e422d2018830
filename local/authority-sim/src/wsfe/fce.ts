import { dayNumber } from "../time.js";
import type { DetailCheck, Findings } from "./findings.js";
import { FCE_INVOICES, isFce } from "./tables.js";

/**
 * FCE MiPyME vouchers (201–213), beyond what other rules already judge (one voucher per
 * request, 10003; DocTipo 80, receptor.ts; the date window, validate.ts; the opcionales' values,
 * opcionales.ts; an associated voucher that does not exist, asociados.ts):
 * - invoices need the CBU (2101) and the transfer option (27), must not carry the annulment
 *   (22), and need FchVtoPago on or after both CbteFch and today;
 * - notes need the annulment (22), must not carry CBU, alias or transfer option, carry
 *   FchVtoPago only when they annul, and associate a voucher of the same issuer and receiver,
 *   with its Cuit and CbteFch.
 * The manual places these codes in 10153–10216 and pins 10169 and 10214–10216; 10153, 10163,
 * 10164, 10168 and 10173 follow a third-party transcription of the manual; 10171, 10176 and
 * 10181 are the simulator's, as are the texts.
 */
export function checkFce(c: DetailCheck, f: Findings): void {
  if (!isFce(c.cbteTipo)) return;
  const d = c.detail;
  const ops = d.opcionales ?? [];
  const has = (id: string): boolean => ops.some((o) => o.id === id);
  if (FCE_INVOICES.has(c.cbteTipo)) {
    if (!has("2101")) {
      f.reject(
        10168,
        "Para Facturas de Credito Electronica MiPyMEs (FCE) es obligatorio informar el Opcional 2101 (CBU del emisor).",
      );
    }
    if (!has("27")) {
      f.reject(
        10216,
        "Para Facturas de Credito Electronica MiPyMEs (FCE) es obligatorio informar el Opcional 27 (Transferencia: SCA o ADC).",
      );
    }
    if (has("22")) {
      f.reject(
        10176,
        "El Opcional 22 (Anulacion) solo puede informarse en Notas de Debito o Credito MiPyMEs (FCE).",
      );
    }
    if (d.fchVtoPago === "") {
      f.reject(
        10163,
        "Para Facturas de Credito Electronica MiPyMEs (FCE) el campo FchVtoPago es obligatorio.",
      );
    } else if (
      dayNumber(d.fchVtoPago) === undefined ||
      d.fchVtoPago < (c.fch > c.today ? c.fch : c.today)
    ) {
      f.reject(
        10164,
        "Campo FchVtoPago debe ser igual o posterior a la fecha del comprobante y a la fecha de envio del pedido.",
      );
    }
    return;
  }
  if (!has("22")) {
    f.reject(
      10173,
      "Para Notas de Debito o Credito MiPyMEs (FCE) es obligatorio informar el Opcional 22 (Anulacion: S o N).",
    );
  }
  if (has("2101") || has("2102")) {
    f.reject(
      10171,
      "Los Opcionales 2101 (CBU) y 2102 (Alias) no pueden informarse en Notas de Debito o Credito MiPyMEs (FCE).",
    );
  }
  if (has("27")) {
    f.reject(
      10214,
      "El Opcional 27 (Transferencia) solo puede informarse en Facturas de Credito Electronica MiPyMEs (FCE).",
    );
  }
  const anula = ops.some((o) => o.id === "22" && o.valor.trim() === "S");
  if (d.fchVtoPago !== "" && !anula) {
    f.reject(
      10181,
      "Para Notas de Debito o Credito MiPyMEs (FCE) el campo FchVtoPago solo puede informarse si son de anulacion (Opcional 22 = S).",
    );
  }
  const asoc = d.cbtesAsoc ?? [];
  const proper = asoc.every((a) => {
    if (a.cuit !== c.cuit || a.cbteFch === "") return false;
    const v = c.known.voucher(a.cuit, a.ptoVta, a.tipo, a.nro);
    // a voucher that does not exist is 10041's
    return v === undefined || (v.docTipo === d.docTipo && v.docNro === d.docNro);
  });
  if (asoc.length === 0 || !proper) {
    f.reject(
      10153,
      "Para Notas de Debito o Credito MiPyMEs (FCE) es obligatorio informar en CbtesAsoc un comprobante del mismo emisor y receptor, con Cuit y CbteFch.",
    );
  }
}
