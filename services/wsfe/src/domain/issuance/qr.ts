import { wsfe } from "@pasarela/contracts";

/** Where the authority's QR points (RG 4892). */
const QR_BASE_URL = "https://www.afip.gob.ar/fe/qr/?p=";

/** The data of an authorized voucher's QR; numbers as the decimal text the voucher holds. */
export interface QrData {
  /** `yyyymmdd` */
  readonly cbteFch: string;
  /** the issuer's CUIT */
  readonly cuit: string;
  readonly ptoVta: number;
  readonly cbteTipo: number;
  readonly cbteNro: number;
  /** ImpTotal, in the voucher's currency */
  readonly importe: string;
  readonly moneda: string;
  readonly cotizacion: string;
  readonly docTipo: number;
  readonly docNro: string;
  /** `E` for a CAE, `A` for a CAEA */
  readonly tipoCodAut?: "E" | "A";
  readonly codAut: string;
}

/** A decimal as a JSON number literal written from its text, so no double rounds it. */
function jsonNumber(decimal: string): string {
  const text = wsfe.canonicalDecimal(decimal);
  if (text === undefined) throw new Error(`not a decimal for the QR: ${decimal}`);
  return text;
}

function digits(value: string): string {
  if (!/^\d+$/.test(value)) throw new Error(`not digits for the QR: ${value}`);
  return value.replace(/^0+(?=\d)/, "");
}

/**
 * RG 4892: the compact JSON with the keys in the published order, in standard base64 with
 * padding. The receiver's document is left out when there is none (the unidentified consumidor
 * final, 99/0): both keys are optional in the RG 4892 specification.
 */
function qrPayload(data: QrData): string {
  const fecha = `${data.cbteFch.slice(0, 4)}-${data.cbteFch.slice(4, 6)}-${data.cbteFch.slice(6, 8)}`;
  const receptor =
    data.docTipo === 99 && digits(data.docNro) === "0"
      ? ""
      : `,"tipoDocRec":${data.docTipo},"nroDocRec":${digits(data.docNro)}`;
  return (
    `{"ver":1,"fecha":${JSON.stringify(fecha)},"cuit":${digits(data.cuit)},"ptoVta":${data.ptoVta}` +
    `,"tipoCmp":${data.cbteTipo},"nroCmp":${data.cbteNro},"importe":${jsonNumber(data.importe)}` +
    `,"moneda":${JSON.stringify(data.moneda)},"ctz":${jsonNumber(data.cotizacion)}${receptor}` +
    `,"tipoCodAut":${JSON.stringify(data.tipoCodAut ?? "E")},"codAut":${digits(data.codAut)}}`
  );
}

/** The URL printed as the voucher's QR code. */
export function buildQrUrl(data: QrData): string {
  return `${QR_BASE_URL}${Buffer.from(qrPayload(data), "utf8").toString("base64")}`;
}
