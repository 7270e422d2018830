import { z } from "zod";
import { environmentSchema, representadaSchema } from "../common/fields.js";
import { cbteNroSchema, ptoVtaSchema } from "../wsfe/fields.js";
import { issuedCbteTipoSchema } from "../wsfe/issued-cbte-tipo.js";

/**
 * A voucher is named by all five fields; with the account from the bus header, a
 * voucher of another account answers exactly like one that does not exist.
 */
export const comprobanteKeyFields = {
  environment: environmentSchema,
  representada: representadaSchema,
  ptoVta: ptoVtaSchema,
  cbteTipo: issuedCbteTipoSchema,
  cbteNro: cbteNroSchema,
};
export const comprobanteKeySchema = z.object(comprobanteKeyFields).strict();
export type ComprobanteKey = z.output<typeof comprobanteKeySchema>;

/** Which copy is printed: one page set each; `todas` is the three in order. */
export const COPIAS = ["original", "duplicado", "triplicado", "todas"] as const;
export const copiaSchema = z
  .enum(COPIAS, {
    error: () => 'debe ser "original", "duplicado", "triplicado" o "todas"',
  })
  .describe("Copia a imprimir; por defecto original. todas: las tres, una tras otra");
export type Copia = z.output<typeof copiaSchema>;

/** The rendered document: its download name and the PDF bytes in standard base64. */
export const pdfDocumentSchema = z
  .object({
    filename: z.string().describe("<cuit>_<tipo>_<ptoVta>-<nro>.pdf"),
    pdf: z.base64().describe("El PDF en base64"),
  })
  .strict();
export type PdfDocument = z.output<typeof pdfDocumentSchema>;

/** The render's failures: 404, 422, 502. */
export const pdfRenderErrors = [
  "COMPROBANTE_NOT_FOUND",
  "COMPROBANTE_RECHAZADO",
  "PDF_RENDER_FAILED",
  "PDF_STORAGE_FAILED",
] as const;

/** Rendering 200 items, three copies, with a first read of the voucher and the profile. */
export const PDF_RENDER_TIMEOUT_MS = 30_000;
