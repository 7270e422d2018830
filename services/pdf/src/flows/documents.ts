import type { Bus, HandlerContext } from "@pasarela/bus";
import { wsfe, type pdf } from "@pasarela/contracts";
import { appError, fail, ok, type Result } from "@pasarela/errors";
import type { PdfStore } from "../adapters/storage.js";
import { pdfFilename, type ComprobanteRef } from "../domain/comprobante-ref.js";
import { renderComprobante, type Fonts } from "../adapters/layout/index.js";
import type { Impresion } from "../domain/impresion.js";
import type { CopiaImpresa } from "../domain/tables.js";
import type { Emisores } from "./emisores.js";

const COPIAS_DE: Record<pdf.Copia, readonly CopiaImpresa[]> = {
  original: ["original"],
  duplicado: ["duplicado"],
  triplicado: ["triplicado"],
  todas: ["original", "duplicado", "triplicado"],
};

/**
 * Files printed before vouchers had a fixed issuer lie under the account's id at the top; each
 * of those copies showed the profile as it was when that copy was printed, so they are not
 * served again, and a voucher's copies are all printed anew with its one issuer.
 */
const LAYOUT = "v2";

/** One file per account, voucher and copy: a voucher of another account never shares one. */
export function storeKey(accountId: string, ref: ComprobanteRef, copia: pdf.Copia): string {
  return [
    LAYOUT,
    accountId,
    ref.environment,
    ref.representada,
    String(ref.ptoVta),
    String(ref.cbteTipo),
    `${ref.cbteNro}-${copia}.pdf`,
  ].join("/");
}

export interface DocumentsDeps {
  bus: Pick<Bus, "request">;
  store: PdfStore;
  fonts: Fonts;
  /** the issuer each voucher prints */
  emisores: Emisores;
}

type Context = Pick<HandlerContext, "requestId" | "deadline" | "logger">;

/**
 * The printed voucher of an account: served from storage when it was rendered before, else
 * read from wsfe (404 and 422 come from there), rendered with the issuer it prints (fixed at
 * its first print) and stored. A profile that cannot be read prints what is known, a logo that
 * does not decode is left out; a store or generator failure is a 502.
 */
export function makeDocuments(deps: DocumentsDeps) {
  const options = (accountId: string, ctx: Context) => ({
    accountId,
    requestId: ctx.requestId,
    deadline: ctx.deadline,
  });

  /** The stored voucher when it has a printed representation. */
  async function printable(
    accountId: string,
    ref: ComprobanteRef,
    ctx: Context,
  ): Promise<Result<wsfe.Emitido>> {
    const emitido = await deps.bus.request(wsfe.emitidoGet, ref, options(accountId, ctx));
    if (!emitido.ok) return emitido;
    // a voucher issued under a CAEA prints from its issuance: the customer holds it while it
    // waits to be informed; one the authority refused at informing prints no more
    const { state } = emitido.value;
    if (state !== "authorized" && state !== "caea_pendiente") {
      return fail(appError("COMPROBANTE_RECHAZADO"));
    }
    return emitido;
  }

  /**
   * The voucher is a legal document its customer needs: a logo the renderer still refuses
   * never fails it, the voucher prints without the logo.
   */
  async function render(impresion: Impresion, ref: ComprobanteRef, ctx: Context) {
    try {
      return await renderComprobante(impresion, deps.fonts);
    } catch (error) {
      if (!impresion.logo) throw error;
      ctx.logger.warn(
        { representada: ref.representada, environment: ref.environment, err: error },
        "issuer logo failed to render: printing without it",
      );
      return renderComprobante({ ...impresion, logo: null }, deps.fonts);
    }
  }

  async function document(
    accountId: string,
    ref: ComprobanteRef,
    copia: pdf.Copia,
    ctx: Context,
  ): Promise<Result<pdf.PdfDocument>> {
    const key = storeKey(accountId, ref, copia);
    const answer = (bytes: Buffer) =>
      ok({ filename: pdfFilename(ref), pdf: bytes.toString("base64") });
    let stored: Buffer | undefined;
    try {
      stored = await deps.store.read(key);
    } catch (error) {
      ctx.logger.error({ err: error }, "pdf store unreadable");
      return fail(appError("PDF_STORAGE_FAILED"));
    }
    if (stored) return answer(stored);

    const emitido = await printable(accountId, ref, ctx);
    if (!emitido.ok) return emitido;
    const issuer = await deps.emisores.issuerOf(accountId, ref, emitido.value, ctx);
    const { lasting } = issuer;
    const impresion: Impresion = {
      emitido: emitido.value,
      perfil: issuer.emisor,
      logo: issuer.logo,
      copias: COPIAS_DE[copia],
    };
    let bytes: Buffer;
    try {
      bytes = await render(impresion, ref, ctx);
    } catch (error) {
      ctx.logger.error({ err: error }, "pdf rendering failed");
      return fail(appError("PDF_RENDER_FAILED"));
    }
    if (!lasting) return answer(bytes);
    try {
      await deps.store.write(key, bytes);
    } catch (error) {
      ctx.logger.error({ err: error }, "pdf store unwritable");
      return fail(appError("PDF_STORAGE_FAILED"));
    }
    return answer(bytes);
  }

  return { document, printable };
}

export type Documents = ReturnType<typeof makeDocuments>;
