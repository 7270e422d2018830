import { z } from "zod";
import { defineContract } from "../contract.js";
import { isoDateTimeSchema } from "../common/fields.js";
import {
  comprobanteKeySchema,
  pdfDocumentSchema,
  pdfRenderErrors,
  PDF_RENDER_TIMEOUT_MS,
} from "./fields.js";

/** A shareable link: the public URL, its opaque token and when it stops working. */
export const pdfLinkSchema = z
  .object({
    url: z.url().describe("GET <url> sin API key: el PDF original del comprobante"),
    token: z.string().describe("Token opaco y aleatorio del link"),
    expiresAt: isoDateTimeSchema.describe("Vencimiento del link"),
  })
  .strict();
export type PdfLink = z.output<typeof pdfLinkSchema>;

/**
 * `pdf.link.create` (POST /api/wsfe/comprobantes/pdf-link, and the issuance answer's
 * `pdfUrl`): a new link to the original copy of a voucher of this account (bus header). Only
 * the token's hash is stored; the token is answered once.
 */
export const linkCreate = defineContract({
  subject: "pdf.link.create",
  request: comprobanteKeySchema,
  reply: pdfLinkSchema,
  errors: ["COMPROBANTE_NOT_FOUND", "COMPROBANTE_RECHAZADO"],
  timeoutMs: 10_000,
  needsAccount: true,
  // asking again does no harm: a lost request is repeated after the silence, not waited out
  onSilence: "repeat",
});

/** The path segment of GET /comprobantes/<token>.pdf, as the edge read it. */
export const pdfLinkTokenSchema = z.string().min(1).max(256);

/**
 * `pdf.link.open` (GET /comprobantes/<token>.pdf, no API key and no account header): the
 * document behind a live link. Unknown, altered and expired tokens answer the same 404.
 */
export const linkOpen = defineContract({
  subject: "pdf.link.open",
  request: z.object({ token: pdfLinkTokenSchema }).strict(),
  reply: pdfDocumentSchema,
  errors: ["PDF_LINK_NOT_FOUND", ...pdfRenderErrors],
  timeoutMs: PDF_RENDER_TIMEOUT_MS,
});
